import { useCallback, useEffect, useRef, useState } from 'react';
import type { ChatMessageEvent, ChatReadEvent, Message, MessagesResponse } from '../../../../server/contract/chat.ts';
import { defaultPageSize } from '../../../../server/contract/chat.ts';
import { ApiError } from '../../api/client.ts';
import { onLiveEvent, onLiveOpen } from '../../api/liveEvents.ts';
import { chatQueries } from '../../api/queries/chat.ts';

export type Participant = MessagesResponse['participant'];

interface State {
  status: 'loading' | 'ready' | 'error';
  error: ApiError | null;
  participant: Participant | null;
  /** Oldest first. */
  messages: Message[];
  hasOlder: boolean;
  loadingOlder: boolean;
}

/** Adds messages not already there (a sent message also comes back on the live stream), in id order. */
function merge(current: Message[], incoming: Message[]): Message[] {
  const known = new Set(current.map((m) => m.message_id));
  const fresh = incoming.filter((m) => !known.has(m.message_id));
  if (fresh.length === 0) return current;
  return [...current, ...fresh].sort((a, b) => a.message_id - b.message_id);
}

const asError = (error: unknown) => (error instanceof ApiError ? error : new ApiError(0, null, String(error)));

/**
 * One conversation: the newest page first, older pages on demand, sending, and the live stream (new
 * messages from either side, the other person's read marks). Messages arriving while the tab is visible
 * are marked read at once, so the sender sees it.
 */
export function useConversation(conversationId: number, myProfileId: number | null) {
  const [state, setState] = useState<State>({ status: 'loading', error: null, participant: null, messages: [], hasOlder: false, loadingOlder: false });
  const stateRef = useRef(state);
  stateRef.current = state;
  const markTimer = useRef<number | undefined>(undefined);

  const loadLatest = useCallback(async () => {
    try {
      const page = await chatQueries.messages(conversationId, defaultPageSize);
      setState((s) => ({
        ...s,
        status: 'ready',
        error: null,
        participant: page.participant,
        messages: s.status === 'ready' ? merge(s.messages, page.messages) : page.messages,
        hasOlder: s.status === 'ready' ? s.hasOlder : page.messages.length === defaultPageSize,
      }));
    } catch (error) {
      setState((s) => (s.status === 'ready' ? s : { ...s, status: 'error', error: asError(error) }));
    }
  }, [conversationId]);

  useEffect(() => {
    setState({ status: 'loading', error: null, participant: null, messages: [], hasOlder: false, loadingOlder: false });
    void loadLatest();
  }, [loadLatest]);

  const loadOlder = useCallback(async () => {
    const s = stateRef.current;
    const oldest = s.messages[0];
    if (s.status !== 'ready' || !s.hasOlder || s.loadingOlder || !oldest) return;
    setState((c) => ({ ...c, loadingOlder: true }));
    try {
      const page = await chatQueries.messages(conversationId, defaultPageSize, oldest.message_id);
      setState((c) => ({ ...c, loadingOlder: false, hasOlder: page.messages.length === defaultPageSize, messages: merge(c.messages, page.messages) }));
    } catch {
      setState((c) => ({ ...c, loadingOlder: false }));
    }
  }, [conversationId]);

  const send = useCallback(
    async (content: string) => {
      const message = await chatQueries.send(conversationId, content);
      setState((c) => ({ ...c, messages: merge(c.messages, [message]) }));
      return message;
    },
    [conversationId],
  );

  useEffect(() => {
    const markRead = () => {
      window.clearTimeout(markTimer.current);
      // Reading a page marks the rest read on the server, which tells the sender.
      markTimer.current = window.setTimeout(() => void chatQueries.messages(conversationId, 1).catch(() => undefined), 300);
    };
    const offMessage = onLiveEvent('message', (data) => {
      const event = data as ChatMessageEvent;
      if (event.conversation_id !== conversationId) return;
      const mine = event.sender_profile_id === myProfileId;
      const message: Message = {
        message_id: event.message_id,
        sender_profile_id: event.sender_profile_id,
        content: event.content,
        timestamp: event.timestamp,
        read: !mine,
      };
      setState((c) => ({ ...c, messages: merge(c.messages, [message]) }));
      if (!mine && document.visibilityState === 'visible') markRead();
    });
    const offRead = onLiveEvent('read', (data) => {
      const event = data as ChatReadEvent;
      if (event.conversation_id !== conversationId) return;
      setState((c) => ({ ...c, messages: c.messages.map((m) => (m.sender_profile_id === myProfileId ? { ...m, read: true } : m)) }));
    });
    // After a reconnection: fill anything missed (the stream replays too; merging makes both safe).
    let opened = false;
    const offOpen = onLiveOpen(() => {
      if (opened) void loadLatest();
      opened = true;
    });
    const onVisible = () => {
      if (document.visibilityState === 'visible') void loadLatest();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      window.clearTimeout(markTimer.current);
      offMessage();
      offRead();
      offOpen();
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [conversationId, myProfileId, loadLatest]);

  return { ...state, loadOlder, send, retry: loadLatest };
}
