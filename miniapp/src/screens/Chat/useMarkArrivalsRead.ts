import { useEffect, useRef } from 'react';
import type { Message } from '@contract/chat.ts';
import { markConversationRead } from '../../api/queries/chat.ts';

/** Marks wait this long for more of a burst of arrivals: one request for the lot. */
const markDelayMs = 300;

/**
 * A message from the other person that arrives while the conversation is on screen (the live stream puts
 * it in the cache) is marked read at once, so the sender sees it. Whatever the newest page brought was
 * marked read by reading it; what came while the tab was hidden is read when the tab shows it again
 * (the conversation is read again then).
 */
export function useMarkArrivalsRead(
  conversationId: number,
  messages: Message[] | undefined,
  myProfileId: number | null,
): void {
  const last = messages?.at(-1);
  const seen = useRef<number | null>(null);
  const timer = useRef<number | undefined>(undefined);

  useEffect(() => {
    if (!last) return;
    const before = seen.current;
    seen.current = last.message_id;
    if (before === null || last.message_id <= before) return;
    if (last.sender_profile_id === myProfileId || document.visibilityState !== 'visible') return;
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(
      () => void markConversationRead(conversationId).catch(() => undefined),
      markDelayMs,
    );
  }, [conversationId, last, myProfileId]);

  useEffect(() => () => window.clearTimeout(timer.current), []);
}
