import { z } from 'zod';

export const maxMessageLength = 2000;
export const defaultPageSize = 20;

export const startConversationBody = z.strictObject({
  profile_id: z.coerce.number().int().positive(),
});

export const conversationParams = z.object({ id: z.coerce.number().int().positive() });

export const messagesQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(50).default(defaultPageSize),
  before_message_id: z.coerce.number().int().positive().optional(),
});

export const sendMessageBody = z.strictObject({
  content: z
    .string({ error: 'Message is empty' })
    .trim()
    .min(1, 'Message is empty')
    .max(maxMessageLength, 'Message must be at most 2000 characters.'),
});

export const message = z.object({
  message_id: z.number().int(),
  sender_profile_id: z.number().int(),
  content: z.string(),
  timestamp: z.string(),
});
export type Message = z.infer<typeof message>;

export const messagesResponse = z.object({
  /** Oldest first within the page; the first page holds the newest messages. */
  messages: z.array(message),
  participant: z.object({ name: z.string(), photo: z.string().nullable() }),
});
export type MessagesResponse = z.infer<typeof messagesResponse>;

export const chatListItem = z.object({
  conversation_id: z.number().int(),
  name: z.string(),
  photo: z.string().nullable(),
  last_message: z.string().nullable(),
  last_message_time: z.string().nullable(),
  has_unread: z.boolean(),
});
export type ChatListItem = z.infer<typeof chatListItem>;
