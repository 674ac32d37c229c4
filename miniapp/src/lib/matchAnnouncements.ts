import { useSyncExternalStore } from 'react';
import type { MatchedProfile } from '@contract/discovery.ts';
import { acknowledgeEvents, markMatchSeen } from '../api/queries/badges.ts';
import { wantCache } from '../api/sessionCache.ts';

/**
 * The matches waiting to be announced with the overlay (issue 19), whichever screen is open: from a swipe
 * here (the deck, a liker's profile) and from the live stream (the other person liked back, on any
 * device). One overlay per match, keyed by the other person's profile id: the swipe's answer and the
 * stream's `match` event for the same match are one announcement. Shown (components/LiveShell.tsx renders
 * the first one while the tab is visible), it is marked seen on the server and its events acknowledged,
 * so other devices close theirs and the bot does not announce it again.
 */
export interface MatchAnnouncement {
  profile: MatchedProfile;
  /** 'Male' | 'Female' | 'Other' when known (the deck's card says it); the overlay asks otherwise. */
  gender: string | null;
  /** Marked seen from this tab: it stays until the user closes it. */
  shown: boolean;
}

interface Entry extends MatchAnnouncement {
  eventIds: number[];
}

let queue: Entry[] = [];
/** Announced and closed here (true), or seen on another device first (false): never shown again. */
const finished = new Map<number, boolean>();
const subscribers = new Set<() => void>();

/** Entries are replaced, never changed in place: the overlay re-renders on a new object (useSyncExternalStore). */
function setQueue(next: Entry[]): void {
  queue = next;
  for (const notify of subscribers) notify();
}

function update(profileId: number, change: (entry: Entry) => Entry): void {
  setQueue(queue.map((entry) => (entry.profile.id === profileId ? change(entry) : entry)));
}

/** A new match to announce. Again for the same person: folded into the one announcement. */
export function announceMatch(
  profile: MatchedProfile,
  { gender = null, eventId = null }: { gender?: string | null; eventId?: number | null } = {},
): void {
  const events = eventId === null ? [] : [eventId];
  const done = finished.get(profile.id);
  if (done !== undefined) {
    // Already shown here (the swipe's overlay before the stream's event): that event was shown too.
    if (done) acknowledgeEvents(events);
    return;
  }
  const held = queue.find((entry) => entry.profile.id === profile.id);
  if (!held) {
    // The overlay is the live connection's (LiveShell.tsx): on the deck's first load it comes with the
    // query cache once the page has settled, or now, for a match to show.
    wantCache();
    setQueue([...queue, { profile, gender, shown: false, eventIds: events }]);
    return;
  }
  if (held.shown) acknowledgeEvents(events);
  if (!held.shown || (gender && !held.gender)) {
    update(profile.id, (entry) => ({
      ...entry,
      gender: entry.gender ?? gender,
      eventIds: entry.shown ? [] : [...entry.eventIds, ...events],
    }));
  }
}

/** The overlay is on screen in a visible tab: marked seen (other devices close theirs) and its events acknowledged. */
export function matchShown(profileId: number): void {
  const entry = queue.find((e) => e.profile.id === profileId);
  if (!entry || entry.shown) return;
  void markMatchSeen(profileId).catch(() => undefined);
  acknowledgeEvents(entry.eventIds);
  update(profileId, (e) => ({ ...e, shown: true, eventIds: [] }));
}

/** The user closed the overlay (or left for the chat). */
export function dismissMatch(profileId: number): void {
  const entry = queue.find((e) => e.profile.id === profileId);
  if (!entry) return;
  finished.set(profileId, entry.shown);
  setQueue(queue.filter((e) => e !== entry));
}

/**
 * `match_seen`: the overlay was shown on another device (or another tab). One not yet shown here goes
 * without showing; one this tab has shown stays until closed, since its own mark comes back the same way.
 */
export function matchSeenElsewhere(profileId: number): void {
  const entry = queue.find((e) => e.profile.id === profileId);
  if (entry?.shown) return;
  if (!finished.has(profileId)) finished.set(profileId, false);
  if (entry) setQueue(queue.filter((e) => e !== entry));
}

/**
 * The match ended (unmatch, block): nothing to announce. Its person is forgotten too, so a new match with
 * them later in this session is announced as the new match it is (the stream sends a `match` only while its
 * match is live and unseen, so the ended one cannot come back this way).
 */
export function forgetMatch(profileId: number): void {
  finished.delete(profileId);
  if (queue.some((e) => e.profile.id === profileId)) setQueue(queue.filter((e) => e.profile.id !== profileId));
}

/** Another person's app now: nothing of the last one's is announced. */
export function resetMatchAnnouncements(): void {
  finished.clear();
  setQueue([]);
}

function subscribe(notify: () => void): () => void {
  subscribers.add(notify);
  return () => subscribers.delete(notify);
}

/** The announcement to show now, if any (the oldest waiting). */
export function useMatchAnnouncement(): MatchAnnouncement | null {
  return useSyncExternalStore(subscribe, () => queue[0] ?? null);
}
