import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import type { Message, MessagesResponse } from '@contract/chat.ts';
import { defaultPageSize } from '@contract/chatRules.ts';
import { api } from '../client.ts';
import { afterLiveOpen } from '../liveGate.ts';
import { queryKeys } from './keys.ts';

/**
 * The schemas, fetched with the call that needs them (then at once from the browser's module map): the
 * live stream adds what arrives to the cache through this module, and it travels with the deck, whose first
 * load carries no zod (issue 41).
 */
const chat = () => import('@contract/chat.ts');

/** One conversation as the cache holds it: what is loaded so far, oldest first, growing at both ends. */
export interface Conversation {
  participant: MessagesResponse['participant'];
  messages: Message[];
  /** Older pages remain on the server. */
  hasOlder: boolean;
}

/** A page, oldest first; without `before` the newest. Reading also marks the other person's messages read. */
async function fetchPage(conversationId: number, limit: number, before?: number) {
  return api.get(
    `/api/conversations/${conversationId}/messages?limit=${limit}${before ? `&before_message_id=${before}` : ''}`,
    (await chat()).messagesResponse,
  );
}

/** Messages by id, later arguments winning for the same id (a fetched copy has the current read mark). */
function byId(...lists: Message[][]): Message[] {
  const all = new Map<number, Message>();
  for (const list of lists) for (const m of list) all.set(m.message_id, m);
  return [...all.values()].sort((a, b) => a.message_id - b.message_id);
}

/**
 * The newest page laid over what the cache holds. When the page does not reach back to the held messages
 * (more came meanwhile than a page holds, while nobody listened), the held ones are dropped rather than
 * shown with a hole between them; they come back as older pages.
 */
function withLatestPage(held: Conversation | undefined, page: MessagesResponse): Conversation {
  const full = page.messages.length === defaultPageSize;
  const oldestFetched = page.messages[0]?.message_id ?? Number.POSITIVE_INFINITY;
  const newestHeld = held?.messages.at(-1)?.message_id ?? 0;
  if (!held || (full && oldestFetched > newestHeld))
    return { participant: page.participant, messages: page.messages, hasOlder: full };
  return { participant: page.participant, messages: byId(held.messages, page.messages), hasOlder: held.hasOlder };
}

/**
 * Messages that arrived while a conversation's first load was in flight (nothing held yet to add them to),
 * laid into that load's answer: the page may have been read on the server before they were written.
 */
const arrivedWhileLoading = new WeakMap<QueryClient, Map<number, Message[]>>();

function takeArrivedWhileLoading(client: QueryClient, conversationId: number): Message[] {
  const waiting = arrivedWhileLoading.get(client);
  const messages = waiting?.get(conversationId) ?? [];
  waiting?.delete(conversationId);
  return messages;
}

/**
 * Adds messages the cache does not hold yet (a sent message also comes back on the live stream; the copy
 * held first keeps its read mark). Only to a conversation loaded or loading: one never opened loads whole.
 */
export function addToConversation(client: QueryClient, conversationId: number, messages: Message[]): void {
  const key = queryKeys.conversation(conversationId);
  const state = client.getQueryState<Conversation>(key);
  if (state && state.data === undefined && state.fetchStatus === 'fetching') {
    const waiting = arrivedWhileLoading.get(client) ?? new Map<number, Message[]>();
    arrivedWhileLoading.set(client, waiting);
    waiting.set(conversationId, [...(waiting.get(conversationId) ?? []), ...messages]);
    return;
  }
  client.setQueryData<Conversation>(key, (held) =>
    held ? { ...held, messages: byId(messages, held.messages) } : held,
  );
}

/** The other person read everything the caller sent in the conversation. */
export function markMineRead(client: QueryClient, conversationId: number, myProfileId: number | null): void {
  client.setQueryData<Conversation>(queryKeys.conversation(conversationId), (held) =>
    held
      ? {
          ...held,
          messages: held.messages.map((m) =>
            m.sender_profile_id === myProfileId && !m.read ? { ...m, read: true } : m,
          ),
        }
      : held,
  );
}

/** `/api/chats`: the conversations, newest first, with unread marks (kept live by api/liveCache.ts). */
export const chatsQuery = () =>
  queryOptions({
    queryKey: queryKeys.chats(),
    // After the member's stream has opened, if it is about to (api/liveGate.ts): one read, not two.
    queryFn: async () => {
      await afterLiveOpen();
      return api.get('/api/chats', (await chat()).chatList);
    },
  });

export function useChats() {
  return useQuery(chatsQuery());
}

/**
 * One conversation: the newest page (laid over what is cached), older pages on demand. Coming back to the
 * tab reads the newest page again (refetch on focus), which also marks what arrived meanwhile as read.
 */
export function useConversation(conversationId: number) {
  const client = useQueryClient();
  const key = queryKeys.conversation(conversationId);
  const query = useQuery({
    queryKey: key,
    queryFn: async () => {
      try {
        await afterLiveOpen();
        const page = await fetchPage(conversationId, defaultPageSize);
        // The cache is read only now: what live events, a send or older pages added during the fetch stays.
        const loaded = withLatestPage(client.getQueryData<Conversation>(key), page);
        const arrived = takeArrivedWhileLoading(client, conversationId);
        return arrived.length ? { ...loaded, messages: byId(arrived, loaded.messages) } : loaded;
      } finally {
        // After a failed load the retry reads them from the server.
        takeArrivedWhileLoading(client, conversationId);
      }
    },
    refetchOnWindowFocus: true,
  });
  const [loadingOlder, setLoadingOlder] = useState(false);
  const busy = useRef(false);

  const loadOlder = useCallback(async () => {
    const held = client.getQueryData<Conversation>(key);
    const oldest = held?.messages[0];
    if (!held?.hasOlder || !oldest || busy.current) return;
    busy.current = true;
    setLoadingOlder(true);
    try {
      const page = await fetchPage(conversationId, defaultPageSize, oldest.message_id);
      client.setQueryData<Conversation>(key, (c) =>
        c ? { ...c, hasOlder: page.messages.length === defaultPageSize, messages: byId(c.messages, page.messages) } : c,
      );
    } catch {
      // Scrolling up again tries again.
    } finally {
      busy.current = false;
      setLoadingOlder(false);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` is derived from conversationId
  }, [client, conversationId]);

  return { query, loadingOlder, loadOlder };
}

/** Marks the conversation read on the server (reading a page does), so the sender sees it. */
export function markConversationRead(conversationId: number): Promise<unknown> {
  return fetchPage(conversationId, 1);
}

/** A message on its way: the text and the app's name for it (`client_key`), the same for every attempt. */
export interface OutgoingMessage {
  content: string;
  clientKey: string;
}

/** A fresh `client_key`: 32 hex digits (getRandomValues works outside secure contexts too, unlike randomUUID). */
export function newClientKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Sends a message. Sending again under the same key after a lost answer gives back the message already
 * written (the server keeps one per key), so a retry can never post it twice. `networkMode: 'always'`: a
 * send without a connection fails at once and says so, rather than waiting paused and silent.
 */
export function useSendMessage(conversationId: number) {
  const client = useQueryClient();
  return useMutation({
    networkMode: 'always',
    mutationFn: async ({ content, clientKey }: OutgoingMessage) =>
      api.post(`/api/conversations/${conversationId}/messages`, (await chat()).message, {
        content,
        client_key: clientKey,
      }),
    onSuccess: (sent) => {
      addToConversation(client, conversationId, [sent]);
      void client.invalidateQueries({ queryKey: queryKeys.chats() });
    },
  });
}

/**
 * Tells the other person this one is typing (they see it for a few seconds). Best effort: a lost one costs a
 * moment of "typing…", so it is never retried and its failure is said nowhere.
 */
export function sendTyping(conversationId: number): void {
  void chat()
    .then(({ typingResponse }) => api.post(`/api/conversations/${conversationId}/typing`, typingResponse, {}))
    .catch(() => undefined);
}

/** `POST /api/conversations/start`: the match's conversation id (created on first use, the same after). */
export async function startConversation(profileId: number): Promise<number> {
  const { startConversationResponse } = await chat();
  return (await api.post('/api/conversations/start', startConversationResponse, { profile_id: profileId }))
    .conversation_id;
}

export function useStartChat() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: startConversation,
    onSuccess: () => void client.invalidateQueries({ queryKey: queryKeys.chats() }),
  });
}
