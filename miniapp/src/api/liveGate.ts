/**
 * Issue 41: each resource fetched once. Whenever the live stream opens, what the screens show of the
 * counts, chats and conversations is read again (api/liveCache.ts): an answer read before the server fixed
 * the stream's starting point could have missed an event. On a member's first screen that is every such
 * read (the stream opens after the frame), so each was fetched twice. Instead, while a member's stream is
 * on its way, those first reads wait for it to open (`afterLiveOpen`): read after the starting point, they
 * miss nothing, and the reading-again finds them still under way and joins them rather than asking twice.
 *
 * Tiny and without imports: the frame (Layout.tsx, in the entry) says a stream is coming before the live
 * code (LiveShell.tsx, api/liveEvents.ts) has even loaded.
 */

/** Longest wait: a stream slow to open must not hold a screen's data (the reading-again then repairs it). */
const maxWaitMs = 4000;

/** null: not known yet (the session is being checked, while the first screen may already be reading). */
let expected: boolean | null = false;
let open = false;
let waiters: (() => void)[] = [];

function release(): void {
  const waiting = waiters;
  waiters = [];
  for (const resume of waiting) resume();
}

/**
 * The frame: a member's stream will be started (true), none will (false: nobody waits), or the session
 * that decides it is still being checked (null: reads wait for the answer, since the first screen renders
 * beside the check and a member's first reads would otherwise go before their stream).
 */
export function expectLiveStream(coming: boolean | null): void {
  expected = coming;
  if (coming === false) {
    open = false;
    release();
  }
}

/** api/liveEvents.ts: the stream opened (true), or it closed or gave up (false). */
export function liveStreamOpen(isOpen: boolean): void {
  open = isOpen;
  // Given up or open: either way, waiting longer gains nothing.
  release();
}

/** Resolves when a read made now misses no live event: at once, or when the coming stream opens. */
export function afterLiveOpen(): Promise<void> {
  if (expected === false || open) return Promise.resolve();
  return new Promise((resume) => {
    const timer = window.setTimeout(resume, maxWaitMs);
    waiters.push(() => {
      window.clearTimeout(timer);
      resume();
    });
  });
}
