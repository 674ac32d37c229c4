import { useEffect, useState } from 'react';
import { typingShownMs } from '@contract/chat.ts';
import { onLiveEvent } from '../../api/liveEvents.ts';

/**
 * Whether the other person of this conversation is typing: true for `typingShownMs` after their last typing
 * event (they send one every few seconds while they type), and false at once when their message comes.
 */
export function usePartnerTyping(conversationId: number, myProfileId: number | null): boolean {
  // Kept with the conversation it is about: the screen stays mounted from one conversation to the next.
  const [typingIn, setTypingIn] = useState<number | null>(null);
  useEffect(() => {
    let timer: number | undefined;
    const stop = onLiveEvent((event) => {
      if (
        event.type === 'typing' &&
        event.payload.conversation_id === conversationId &&
        event.payload.profile_id !== myProfileId
      ) {
        setTypingIn(conversationId);
        window.clearTimeout(timer);
        timer = window.setTimeout(() => setTypingIn(null), typingShownMs);
      } else if (
        event.type === 'message' &&
        event.payload.conversation_id === conversationId &&
        event.payload.sender_profile_id !== myProfileId
      ) {
        window.clearTimeout(timer);
        setTypingIn(null);
      }
    });
    return () => {
      stop();
      window.clearTimeout(timer);
      // Its timer is gone: back in this conversation later, an old signal must not show for good.
      setTypingIn(null);
    };
  }, [conversationId, myProfileId]);
  return typingIn === conversationId;
}
