import { useQueryClient } from '@tanstack/react-query';
import { Suspense, useEffect, useRef, useSyncExternalStore } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { publishBadgeCounts, useBadgesRead } from '../api/badgeFeed.ts';
import { connectLiveCache } from '../api/liveCache.ts';
import { onLiveEvent, startLiveEvents } from '../api/liveEvents.ts';
import { useBadges } from '../api/queries/badgeCounts.ts';
import type { Conversation } from '../api/queries/chat.ts';
import { queryKeys } from '../api/queries/keys.ts';
import {
  announceMatch,
  forgetMatch,
  matchSeenElsewhere,
  resetMatchAnnouncements,
  useMatchAnnouncement,
} from '../lib/matchAnnouncements.ts';
import { ChunkBoundary } from './ErrorBoundary.tsx';
import { MessageToasts } from './MessageToasts.tsx';
import { retryingLazy } from './retryingLazy.ts';

// Loaded with the first match: most visits show none.
// With the deck's other extras (screens/Search/deckExtras.ts): one chunk, fetched once the deck has settled.
const MatchOverlay = retryingLazy(() =>
  import('../screens/Search/deckExtras.ts').then((m) => ({ default: m.MatchOverlay })),
);

function subscribeVisibility(notify: () => void): () => void {
  document.addEventListener('visibilitychange', notify);
  return () => document.removeEventListener('visibilitychange', notify);
}

/** The first waiting match, over any screen; one not shown yet waits for the tab to be visible. */
function MatchAnnouncer() {
  const match = useMatchAnnouncement();
  const visible = useSyncExternalStore(subscribeVisibility, () => document.visibilityState === 'visible');
  if (!match || (!visible && !match.shown)) return null;
  // A chunk that did not load shows no overlay, and is tried again when the tab is next shown: the match is
  // in the matches list meanwhile.
  return (
    <ChunkBoundary key={match.profile.id} resetKey={visible}>
      <Suspense fallback={null}>
        <MatchOverlay match={match} />
      </Suspense>
    </ChunkBoundary>
  );
}

/**
 * The tab bar's counts from the cache to the bar (api/badgeFeed.ts): fetched while a bar is on screen, and
 * every change the live stream makes to them handed on. Signed out (another member): none.
 */
function BadgeFeed() {
  const { data } = useBadges(useBadgesRead());
  useEffect(() => publishBadgeCounts(data), [data]);
  useEffect(() => () => publishBadgeCounts(undefined), []);
  return null;
}

/** The screen to leave for, when the person it shows is gone (unmatched, blocked, deleted): null to stay. */
function screenLeftWithoutThem(
  pathname: string,
  profileId: number,
  conversationOf: (id: number) => Conversation | undefined,
): string | null {
  const [, screen = '', id = ''] = pathname.toLowerCase().split('/');
  if (screen === 'usersprofile' && Number(id) === profileId) return '/matches';
  if (screen === 'usersprofileliker' && Number(id) === profileId) return '/WhoLike';
  if (screen === 'chat' && conversationOf(Number(id))?.participant.profile_id === profileId) return '/ChatList';
  return null;
}

/**
 * The member's live app (issue 19), mounted by the frame (Layout.tsx) for a signed-in member once the query
 * cache is wanted: the one `/api/events` stream (api/liveEvents.ts), its events applied to the cache
 * (api/liveCache.ts), the match overlay on whatever screen is open, message toasts, the tab bar's counts,
 * and leaving a screen whose person is gone. A new member (another key) starts afresh.
 */
export default function LiveShell() {
  const client = useQueryClient();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  // Read by the event handler: the stream must not restart with every navigation (BrowserRouter's
  // navigate changes with the location).
  const where = useRef({ pathname, navigate });
  useEffect(() => {
    where.current = { pathname, navigate };
  }, [pathname, navigate]);

  useEffect(() => {
    // Listeners first (this and the children's effects run before the stream opens), then the stream.
    const stopCache = connectLiveCache(client);
    const stopShell = onLiveEvent((event) => {
      if (event.type === 'match') announceMatch(event.payload.profile, { eventId: event.id });
      else if (event.type === 'match_seen') matchSeenElsewhere(event.payload.profile_id);
      else if (event.type === 'unmatched') {
        forgetMatch(event.payload.profile_id);
        const conversationOf = (id: number) => client.getQueryData<Conversation>(queryKeys.conversation(id));
        const away = screenLeftWithoutThem(where.current.pathname, event.payload.profile_id, conversationOf);
        // They deleted their profile while their chat is open: it stays, reads again and says so (ChatScreen).
        const chatOpen = away === '/ChatList';
        if (chatOpen && event.payload.deleted) {
          const [, , id = ''] = where.current.pathname.split('/');
          void client.refetchQueries({ queryKey: queryKeys.conversation(Number(id)), exact: true });
        } else if (away) void where.current.navigate(away, { replace: true });
      }
    });
    const stopStream = startLiveEvents();
    return () => {
      stopStream();
      stopShell();
      stopCache();
      resetMatchAnnouncements();
    };
  }, [client]);

  return (
    <>
      <BadgeFeed />
      <MessageToasts />
      <MatchAnnouncer />
    </>
  );
}
