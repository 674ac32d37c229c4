import { useEffect, useRef } from 'react';
import type { Message } from '@contract/chat.ts';
import { markConversationRead } from '../../api/queries/chat.ts';

/** Marks wait this long for more of a burst of arrivals: one request for the lot. */
const markDelayMs = 300;

/**
 * A message from the other person that arrives while the conversation is on screen (the live stream puts
 * it in the cache) is marked read at once, so the sender sees it. Whatever the newest page brought was
 * marked read by reading it; what came while the tab was hidden is read when the tab shows it again
 * (the conversation is read again then). A person who leaves the conversation (or switches to another)
 * within the wait has seen the message too: the waiting mark is sent then instead of being dropped, or the
 * chat list and the badge would call it unread.
 */
export function useMarkArrivalsRead(
  conversationId: number,
  messages: Message[] | undefined,
  myProfileId: number | null,
): void {
  const last = messages?.at(-1);
  const seen = useRef<number | null>(null);
  const waiting = useRef<{ conversationId: number; timer: number } | null>(null);

  useEffect(() => {
    if (!last) return;
    const before = seen.current;
    seen.current = last.message_id;
    if (before === null || last.message_id <= before) return;
    if (last.sender_profile_id === myProfileId || document.visibilityState !== 'visible') return;
    if (waiting.current?.conversationId !== conversationId) sendWaitingMark(waiting);
    else window.clearTimeout(waiting.current.timer);
    waiting.current = {
      conversationId,
      timer: window.setTimeout(() => sendWaitingMark(waiting), markDelayMs),
    };
  }, [conversationId, last, myProfileId]);

  useEffect(() => () => sendWaitingMark(waiting), []);
}

function sendWaitingMark(waiting: { current: { conversationId: number; timer: number } | null }): void {
  const mark = waiting.current;
  if (!mark) return;
  waiting.current = null;
  window.clearTimeout(mark.timer);
  void markConversationRead(mark.conversationId).catch(() => undefined);
}
