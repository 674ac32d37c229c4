import { useEffect, useState } from 'react';
import { typingShownMs } from '@contract/chat.ts';
import { onLiveEvent } from '../../api/liveEvents.ts';

const none: ReadonlySet<number> = new Set();

/**
 * The conversations in which the other person is typing: each for `typingShownMs` after their last typing
 * event (they send one every few seconds while they type), and no longer at once when their message comes.
 * The chat list shows "typing…" in place of the last message; a conversation shows it under the name.
 */
export function useTypingConversations(myProfileId: number | null): ReadonlySet<number> {
  const [typing, setTyping] = useState(none);
  useEffect(() => {
    const timers = new Map<number, number>();
    const change = (conversationId: number, on: boolean) => {
      window.clearTimeout(timers.get(conversationId));
      timers.delete(conversationId);
      if (on)
        timers.set(
          conversationId,
          window.setTimeout(() => change(conversationId, false), typingShownMs),
        );
      setTyping((current) => {
        if (current.has(conversationId) === on) return current;
        const next = new Set(current);
        if (on) next.add(conversationId);
        else next.delete(conversationId);
        return next;
      });
    };
    const stop = onLiveEvent((event) => {
      if (event.type === 'typing' && event.payload.profile_id !== myProfileId) {
        change(event.payload.conversation_id, true);
      } else if (event.type === 'message' && event.payload.sender_profile_id !== myProfileId) {
        change(event.payload.conversation_id, false);
      }
    });
    return () => {
      stop();
      for (const timer of timers.values()) window.clearTimeout(timer);
      // Their timers are gone: back on this screen later, an old signal must not show for good.
      setTyping(none);
    };
  }, [myProfileId]);
  return typing;
}
