import type { Kysely } from 'kysely';
import type { Database, ProfileId, UserId } from '../../../db/schema.ts';
import { addSeconds, type Clock } from '../../clock.ts';
import { flagRepeatedOpener } from '../admin/index.ts';
import {
  typingIntervalSeconds,
  type ChatListItem,
  type ChatMessageEvent,
  type Message,
  type MessagesResponse,
  type TypingResponse,
} from '../../contract/chat.ts';
import { AppError, conflict, notFound } from '../../errors.ts';
import { lockUser } from '../accounts/index.ts';
import { findLiveMatch, isBlockedEitherWay, requireMyProfile } from '../relationships/index.ts';
import { isPremium } from '../premium/index.ts';
import { markMatch } from '../badges/index.ts';
import { type EventBus, insertEventsAndMarkers } from '../events/index.ts';
import type { NotificationQueue } from '../notifications/index.ts';
import { type Allowance, assertAllowance, type RateCounter } from '../rateLimits/index.ts';
import {
  claimTypingSlot,
  countMessagesSince,
  findChatPage,
  findConversationByMatch,
  findMessageByClientKey,
  findSendContext,
  findUsableConversation,
  insertConversation,
  insertMessage,
  isDeparted,
  listChats,
  markRead,
} from './repository.ts';
import { freeMessagesPerDay, messagesPerMinute } from './rules.ts';

const messageAllowance: Allowance = {
  limit: freeMessagesPerDay,
  windowSeconds: 86_400,
  code: 'message_limit',
  message: `You have sent your ${freeMessagesPerDay} free messages for today. Get premium for unlimited messages.`,
};

const conversationNotFound = () => notFound('conversation_not_found', 'Conversation not found');
/** Not "not found": the app says the other person left, and offers no retry and no composer. */
const partnerDeleted = () => new AppError(410, 'partner_deleted', 'This person deleted their profile');

export class ChatService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly rates: RateCounter,
    private readonly bus: EventBus,
    private readonly notifications: NotificationQueue,
  ) {}

  private me(userId: UserId) {
    return requireMyProfile(this.db, userId);
  }

  /** Idempotent: starting twice answers the same conversation. Only with a current match, which it marks opened. */
  async start(userId: UserId, profileId: ProfileId): Promise<number> {
    const me = await this.me(userId);
    const match = await findLiveMatch(this.db, me.id, profileId);
    if (!match || (await isBlockedEitherWay(this.db, me.id, profileId)))
      throw notFound('chat_not_allowed', 'Failed to start chat');
    const now = this.clock.now().toISOString();
    const { conversation, opened } = await this.db.transaction().execute(async (trx) => {
      await insertConversation(trx, match.id, now);
      const opened = await markMatch(trx, { userId, profileId: me.id }, { id: match.id, otherId: profileId }, 2, now);
      return { conversation: await findConversationByMatch(trx, match.id), opened };
    });
    if (opened) await this.bus.publish([userId]);
    if (!conversation) throw conversationNotFound();
    return conversation.id;
  }

  private async membership(userId: UserId, conversationId: number) {
    const me = await this.me(userId);
    const conversation = await findUsableConversation(this.db, conversationId, me.id);
    if (!conversation)
      throw (await isDeparted(this.db, conversationId, me.id)) ? partnerDeleted() : conversationNotFound();
    const otherId = conversation.profile_low === me.id ? conversation.profile_high : conversation.profile_low;
    return { me, conversation, otherId };
  }

  /** A page of messages; reading it marks the other person's messages read and tells them so. */
  async messages(userId: UserId, conversationId: number, limit: number, beforeId?: number): Promise<MessagesResponse> {
    const page = await findChatPage(this.db, userId, conversationId, limit, beforeId);
    if (!page) {
      // Why not, in the order membership() tells it: no profile of one's own, the other left, or nothing.
      const me = await this.me(userId);
      throw (await isDeparted(this.db, conversationId, me.id)) ? partnerDeleted() : conversationNotFound();
    }
    const { me, participant } = page;
    // Nothing unread, nothing to write: a page read again costs its reads alone. A message shown unread counts
    // too: on SQLite the header and the page are two reads, and one that met a lock and waited may see a message
    // newer than the header's flag.
    const unreadShown = page.messages.some((m) => m.sender_id !== me && m.read_at === null);
    const read =
      page.anyUnread || unreadShown
        ? await this.db.transaction().execute(async (trx) => {
            const now = this.clock.now().toISOString();
            const count = await markRead(trx, conversationId, me, now);
            // The reader's unread count drops on all their devices.
            if (count > 0)
              await insertEventsAndMarkers(
                trx,
                [
                  {
                    userId: participant.user_id,
                    type: 'read',
                    payload: { conversation_id: conversationId, reader_profile_id: me },
                  },
                ],
                [userId],
                now,
              );
            return count;
          })
        : 0;
    if (read > 0) await this.bus.publish([participant.user_id, userId]);
    return {
      messages: page.messages.reverse().map((r) => ({
        message_id: r.id,
        sender_profile_id: r.sender_id,
        content: r.content,
        timestamp: r.created_at,
        // Only the sender learns whether the other side has read it; the reader's own marks were just set.
        read: r.sender_id === me ? r.read_at !== null : true,
      })),
      participant: {
        profile_id: participant.id,
        name: participant.name,
        gender: participant.gender,
        photo: participant.photo,
      },
    };
  }

  /**
   * Writes a message and tells both sides. With `clientKey` (the app's name for it) a repeat of a send whose
   * answer was lost answers the message already written, and writes and tells nothing again.
   */
  async send(
    userId: UserId,
    conversationId: number,
    content: string,
    clientKey: string | null = null,
  ): Promise<Message> {
    // Every call counts, as a search does: the counters go with the read a message starts from (one round trip
    // on PostgreSQL), so a call the conversation refuses is counted too.
    const counting = this.rates.plan(
      `messages:user:${userId}`,
      [{ seconds: 60, limit: messagesPerMinute }],
      'message_rate_limited',
      'You are sending messages too fast. Please wait a moment.',
    );
    const context = await findSendContext(this.db, userId, conversationId, counting?.rows ?? []);
    if (!context) {
      // Why not, in membership()'s order: no profile of one's own, the other left, or nothing to use.
      await this.membership(userId, conversationId);
      throw conversationNotFound();
    }
    counting?.check(context.rateCounts);
    const { me, other } = context;
    const now = this.clock.now();
    const premium = isPremium(me.premium_until, now);
    const outcome = await this.db.transaction().execute(async (trx) => {
      // Counted under the sender's lock in the transaction that writes: parallel sends cannot all pass one count.
      // The same lock makes a repeat wait for the first to commit, so it finds the message.
      await lockUser(trx, userId);
      if (clientKey !== null) {
        const earlier = await findMessageByClientKey(trx, me.id, clientKey);
        if (earlier) {
          if (earlier.conversation_id !== conversationId || earlier.content !== content)
            throw conflict('client_key_reused', 'This message key was already used for another message');
          return {
            repeat: true as const,
            message: { message_id: earlier.id, sender_profile_id: me.id, content, timestamp: earlier.created_at },
            read: earlier.read_at !== null,
          };
        }
      }
      if (!premium)
        assertAllowance(
          await countMessagesSince(trx, me.id, addSeconds(now, -messageAllowance.windowSeconds).toISOString()),
          messageAllowance,
          now,
        );
      const row = await insertMessage(trx, conversationId, me.id, content, now.toISOString(), clientKey);
      const payload: ChatMessageEvent = {
        conversation_id: conversationId,
        message_id: row.id,
        sender_profile_id: me.id,
        content,
        timestamp: row.created_at,
      };
      // Both sides: the recipient's tabs, and the sender's other tabs; and the recipient's badge marker, in the
      // same statement (one round trip fewer on every message).
      const [recipientEvent] = await insertEventsAndMarkers(
        trx,
        [
          { userId: other.user_id, type: 'message', payload },
          { userId, type: 'message', payload },
        ],
        [other.user_id],
        now.toISOString(),
      );
      if (recipientEvent !== undefined)
        await this.notifications.message(
          trx,
          other.user_id,
          conversationId,
          { profileId: me.id, name: me.name },
          content,
          recipientEvent,
          now,
        );
      return { repeat: false as const, message: payload, read: false };
    });
    const { message } = outcome;
    if (outcome.repeat) return { ...message, read: outcome.read };
    await this.bus.publish([other.user_id, userId]);
    // A moderation signal, not part of sending: a failure here must not fail the message.
    await flagRepeatedOpener(this.db, userId, me.id, conversationId, content, now).catch(() => false);
    return {
      message_id: message.message_id,
      sender_profile_id: message.sender_profile_id,
      content: message.content,
      timestamp: message.timestamp,
      read: false,
    };
  }

  /**
   * The sender is typing: the other member's open streams hear it (EventBus.signal), never stored, at most once
   * in `typingIntervalSeconds` per sender. A call within that time is answered `sent: false` and tells nobody;
   * refused like a message (404, 410) where a message would be: a stranger, a blocked pair, an ended match.
   */
  async typing(userId: UserId, conversationId: number): Promise<TypingResponse> {
    const context = await findSendContext(this.db, userId, conversationId, []);
    if (!context) {
      await this.membership(userId, conversationId);
      throw conversationNotFound();
    }
    const now = this.clock.now();
    const claimed = await claimTypingSlot(
      this.db,
      userId,
      now.toISOString(),
      addSeconds(now, -typingIntervalSeconds).toISOString(),
    );
    if (claimed)
      await this.bus.signal([context.other.user_id], {
        type: 'typing',
        payload: { conversation_id: conversationId, profile_id: context.me.id },
      });
    return { ok: true, sent: claimed };
  }

  async chats(userId: UserId): Promise<ChatListItem[]> {
    const me = await this.me(userId);
    const rows = await listChats(this.db, me.id);
    return rows.map((r) => ({
      conversation_id: r.conversation_id,
      profile_id: r.profile_id,
      name: r.name,
      photo: r.photo,
      last_message: r.last_message,
      last_message_time: r.last_message_time,
      last_message_mine: r.last_sender === me.id,
      has_unread: Boolean(r.has_unread),
    }));
  }
}
