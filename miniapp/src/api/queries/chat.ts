import { z } from 'zod';
import { chatListItem, message, messagesResponse, startConversationResponse } from '../../../../server/contract/chat.ts';
import { api } from '../client.ts';

/**
 * Chat calls shared by every screen that leads into a conversation (the match overlay, a match's profile,
 * the chat list) and by the chat screens themselves.
 */
export const chatQueries = {
  /** `POST /api/conversations/start`: the match's conversation id (created on first use, same id after). */
  start: (profileId: number) =>
    api.post('/api/conversations/start', startConversationResponse, { profile_id: profileId }).then((r) => r.conversation_id),
  list: () => api.get('/api/chats', z.array(chatListItem)),
  /** A page, oldest first; without `before` the newest. Reading also marks the other person's messages read. */
  messages: (conversationId: number, limit: number, before?: number) =>
    api.get(`/api/conversations/${conversationId}/messages?limit=${limit}${before ? `&before_message_id=${before}` : ''}`, messagesResponse),
  send: (conversationId: number, content: string) => api.post(`/api/conversations/${conversationId}/messages`, message, { content }),
};
