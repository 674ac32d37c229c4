import { useEffect } from 'react';
import { onLiveEvent } from '../../api/liveEvents.ts';
import { acknowledgeEvents } from '../../api/queries/badges.ts';

/**
 * The open conversation tells the server which message events it showed (issue 19), so the bot does not
 * send them again: each message from the other person that arrives here, once the tab is visible (one that
 * arrives while the tab is hidden waits until the tab shows it).
 */
export function useAcknowledgeShown(conversationId: number, myProfileId: number | null): void {
  useEffect(() => {
    let waiting: number[] = [];
    const sendIfVisible = () => {
      if (document.visibilityState !== 'visible' || !waiting.length) return;
      acknowledgeEvents(waiting);
      waiting = [];
    };
    const stop = onLiveEvent((event) => {
      if (event.type !== 'message' || event.id === null) return;
      if (event.payload.conversation_id !== conversationId || event.payload.sender_profile_id === myProfileId) return;
      waiting.push(event.id);
      sendIfVisible();
    });
    document.addEventListener('visibilitychange', sendIfVisible);
    return () => {
      stop();
      document.removeEventListener('visibilitychange', sendIfVisible);
    };
  }, [conversationId, myProfileId]);
}
