import { z } from 'zod/mini';
import { profileRowId, rowId } from './ids.ts';
import { genders } from './profiles.ts';
import { defaultPageSize } from './chatRules.ts';

export { defaultPageSize };

export const maxMessageLength = 2000;

export const startConversationBody = z.strictObject({
  profile_id: profileRowId('profile_id'),
});

export const startConversationResponse = z.object({ conversation_id: z.number().check(z.int()) });

export const conversationParams = z.object({ id: rowId('id') });

export const messagesQuery = z.strictObject({
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(50)), defaultPageSize),
  before_message_id: z.optional(rowId('before_message_id')),
});

export const sendMessageBody = z.strictObject({
  content: z
    .string({ error: 'Message is empty' })
    .check(
      z.trim(),
      z.minLength(1, 'Message is empty'),
      z.maxLength(maxMessageLength, 'Message must be at most 2000 characters.'),
    ),
  /**
   * The app's own name for this message (e.g. a UUID), kept while it is unsent: sending again with the same
   * key after a lost answer gives back the message already written, never a second one.
   */
  client_key: z.optional(z.string().check(z.regex(/^[A-Za-z0-9_-]{8,64}$/, 'Invalid message key'))),
});

export const message = z.object({
  message_id: z.number().check(z.int()),
  sender_profile_id: z.number().check(z.int()),
  content: z.string(),
  timestamp: z.string(),
  /** For the caller's own messages: the other person has read it. */
  read: z.boolean(),
});
export type Message = z.infer<typeof message>;

export const messagesResponse = z.object({
  /** Oldest first within the page; the first page holds the newest messages. */
  messages: z.array(message),
  /** `gender`: the app words what it says of them by it ("заблокирована", i18next's _male/_female contexts). */
  participant: z.object({
    profile_id: z.number().check(z.int()),
    name: z.string(),
    gender: z.enum(genders),
    photo: z.nullable(z.string()),
  }),
});
export type MessagesResponse = z.infer<typeof messagesResponse>;

export const chatListItem = z.object({
  conversation_id: z.number().check(z.int()),
  /** The other person's profile: a live `unmatched` or block event names the person, not the conversation. */
  profile_id: z.number().check(z.int()),
  name: z.string(),
  photo: z.nullable(z.string()),
  last_message: z.nullable(z.string()),
  last_message_time: z.nullable(z.string()),
  /** The last message is the caller's own (the list shows "You: …"). */
  last_message_mine: z.boolean(),
  has_unread: z.boolean(),
});
export type ChatListItem = z.infer<typeof chatListItem>;
/** `GET /api/chats`. */
export const chatList = z.array(chatListItem);

/** `event: message` on /api/events: a new message in one of the caller's conversations (either side). */
export const chatMessageEvent = z.object({
  conversation_id: z.number().check(z.int()),
  message_id: z.number().check(z.int()),
  sender_profile_id: z.number().check(z.int()),
  content: z.string(),
  timestamp: z.string(),
});
export type ChatMessageEvent = z.infer<typeof chatMessageEvent>;

/** `event: read` on /api/events: the other person has read the caller's messages in a conversation. */
export const chatReadEvent = z.object({
  conversation_id: z.number().check(z.int()),
  reader_profile_id: z.number().check(z.int()),
});
export type ChatReadEvent = z.infer<typeof chatReadEvent>;

/**
 * `event: typing` on /api/events: the other person is typing in a conversation of the caller's. Never stored
 * and never replayed (it carries no `id:`): the app shows it for `typingShownMs` or until their message comes.
 */
export const typingEvent = z.object({
  conversation_id: z.number().check(z.int()),
  profile_id: z.number().check(z.int()),
});
export type TypingEvent = z.infer<typeof typingEvent>;

/** A sender's typing signals go out at most once in this many seconds (the app calls no more often either). */
export const typingIntervalSeconds = 3;
/** How long the app shows "typing…" after a signal, unless their message comes first. */
export const typingShownMs = 5000;

/**
 * `POST /api/conversations/{id}/typing` answers 200 whether or not the signal went out: `sent` is false when
 * the sender's last one went out less than `typingIntervalSeconds` ago (it is dropped, not refused: the app
 * would have nothing better to do with a 429 than to forget it).
 */
export const typingResponse = z.object({ ok: z.literal(true), sent: z.boolean() });
export type TypingResponse = z.infer<typeof typingResponse>;
