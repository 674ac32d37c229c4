import { Suspense, useEffect, useLayoutEffect, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { expectLiveStream } from '../api/liveGate.ts';
import { cacheAsks, cacheWanted, onCacheWanted, wantCache } from '../api/sessionCache.ts';
import { releaseBootCard } from '../lib/bootCard.ts';
import { platform } from '../platform/index.ts';
import { memberKey, useSession } from '../session/SessionProvider.tsx';
import { ChunkBoundary } from './ErrorBoundary.tsx';
import { StartParamRedirect } from './StartParamRedirect.tsx';
import { lazyScreen } from './lazyScreen.ts';
import { Loading } from './States.tsx';
import { TopBar } from './TopBar.tsx';

// The live connection with its overlay and toasts, and the query cache its events go to: only for members,
// with the first screen that reads through the cache, or once the page has settled (the deck's first card
// reads nothing through it: issue 41). Inside a ChunkBoundary: its chunks (`live`, `queries`) failing to load
// costs the stream, the toasts and the counts, never the screen under them.
const LiveShell = lazyScreen(() => import('./LiveShell.tsx'));
// Members only (issue 41: neither on / nor /login). Its space is kept from the start (`with-tabs`), so the
// bar arriving moves nothing. Its counts come with the live connection (LiveShell's `BadgeFeed`).
const TabBar = lazyScreen<object>(() => import('./TabBar.tsx').then((m) => ({ default: m.TabBar })), {
  queries: false,
});

/** Once the page has loaded and settled, the query cache and the live connection come for a member. */
function wantCacheOnceSettled(): void {
  void import('../api/contractCheck.ts')
    .then(({ pageSettled }) => pageSettled())
    // Not loaded (offline): the cache is asked for all the same, and if the live connection's chunks fail
    // too, its ChunkBoundary keeps the screen and it loads again at the next ask or route (Layout below).
    .catch(() => undefined)
    .then(wantCache);
}

/**
 * How the frame looks around a screen, given in the route table as the route's `handle`: `framed` for
 * the legal documents (a page inside the page), `chat` for a conversation (it fills the screen below the
 * top bar; only its messages scroll), and whether the screen is top-level (no back button there).
 */
export interface ScreenFrame {
  look?: 'framed' | 'chat';
  topLevel?: boolean;
  /** The deck: the screen is exactly the space between the top bar and the tab bar (no page scroll). */
  fill?: boolean;
  /** A members' screen (RequireMember's routes): the tab bar is likely once the session has answered. */
  members?: boolean;
}

/** Tells the host the first screen has rendered (Telegram's ready(); a mark for the bench). */
function ReadySignal() {
  useEffect(() => {
    if (document.documentElement.dataset.ready === 'true') return;
    performance.mark('iskra:ready');
    platform().ready();
  }, []);
  return null;
}

/** The host's back button (Telegram's) on every screen but the top-level ones. */
function BackButton({ topLevel }: { topLevel: boolean }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    platform().setBackButton(topLevel ? null : () => void navigate(-1));
  }, [topLevel, pathname, navigate]);
  return null;
}

/** Telegram's Settings item opens the app's menu. */
function SettingsButton() {
  const navigate = useNavigate();
  useEffect(() => {
    platform().onSettings(() => void navigate('/Menu'));
    return () => platform().onSettings(null);
  }, [navigate]);
  return null;
}

/**
 * The frame around every screen: skip link, top bar, the main area, and for members the tab bar and the
 * live connection (one stream for the whole app: LiveShell.tsx). Which screens need a session, a verified
 * address or a profile is in the route table too (session/RouteGuards.tsx). `frameAt` reads the matched
 * route's frame, known before the screen's own chunk has loaded.
 */
export function Layout({ frameAt }: { frameAt: (pathname: string) => ScreenFrame }) {
  const { pathname } = useLocation();
  const frame = frameAt(pathname);
  const { session } = useSession();
  const member = memberKey(session);
  // Said during render, before the screen's first reads start (their effects run after this render); not
  // known while the session loads (the first screen renders beside the check).
  expectLiveStream(session.status === 'loading' ? null : member !== null);
  // Not in a conversation: there the composer owns the bottom of the screen (and the keyboard rises under
  // it), and the header leads back to the chats. Nor around the legal documents, a page inside the page.
  // Nor before the profile exists (a Telegram newcomer in the wizard): every tab would lead back to the
  // wizard, so none is shown, as on the web.
  const hasProfile = session.status === 'signedIn' && session.profile !== null;
  const tabs = member !== null && hasProfile && !frame.look;
  // The deck fills the space above the tab bar and may show its card before the session has answered
  // (RouteGuards.tsx sends nobody away while it loads): the bar's space is kept from the start, or the
  // card would shrink under the reader when the bar comes (issue 41: layout shift on /search).
  const tabSpace = tabs || (session.status === 'loading' && frame.fill === true);
  // The bar's code is asked for where it is drawn, and on a members' screen while the session loads (the
  // deck, the chats, the menu...), so the bar comes with the screen instead of a round-trip after the
  // session. Idempotent; a failed download is left to the bar's own render, whose ChunkBoundary tries again
  // on the next route.
  const tabsLikely = tabs || (session.status === 'loading' && frame.members === true);
  useEffect(() => {
    if (tabsLikely) TabBar.preload().catch(() => undefined);
  }, [tabsLikely]);
  const live = useSyncExternalStore(onCacheWanted, cacheWanted) && member !== null;
  // A frame part whose chunk failed loads again at the next route, the live connection also at the next ask
  // for the cache (a match to announce, a screen that reads through it).
  const asks = useSyncExternalStore(onCacheWanted, cacheAsks);
  useEffect(() => {
    if (member !== null) wantCacheOnceSettled();
  }, [member]);
  // boot.js may have painted the deck's first photo (lib/bootCard.ts): anywhere but the deck, it goes before
  // this frame paints (a visitor sent to sign in, a screen opened before the card came).
  const deck = frame.fill === true;
  useLayoutEffect(() => {
    if (!deck) releaseBootCard();
  }, [deck]);
  const classes = [
    'app',
    frame.look === 'chat' ? 'chat-mode' : frame.look === 'framed' ? 'framed' : '',
    tabSpace ? 'with-tabs' : '',
    frame.fill ? 'fill-mode' : '',
  ];
  return (
    <div className={classes.filter(Boolean).join(' ')}>
      <a href="#main" className="skip-link">
        <SkipText />
      </a>
      <TopBar />
      <BackButton topLevel={frame.topLevel ?? false} />
      <SettingsButton />
      <StartParamRedirect />
      <main id="main" className="main" tabIndex={-1}>
        <Suspense fallback={<Loading />}>
          <Outlet />
          <ReadySignal />
        </Suspense>
      </main>
      {tabs && (
        <ChunkBoundary resetKey={pathname}>
          <Suspense fallback={null}>
            <TabBar />
          </Suspense>
        </ChunkBoundary>
      )}
      {live && (
        <ChunkBoundary key={member} resetKey={`${pathname} ${asks}`}>
          <Suspense fallback={null}>
            <LiveShell />
          </Suspense>
        </ChunkBoundary>
      )}
    </div>
  );
}

function SkipText() {
  const { t } = useTranslation();
  return <>{t('app.nav.skip')}</>;
}
