import { z } from 'zod/mini';
import { badgeCounts } from './badges.ts';
import { chatMessageEvent, chatReadEvent, typingEvent } from './chat.ts';
import { matchedProfile } from './discovery.ts';
import { profileIdField, rowId } from './ids.ts';
import { ephemeralEventTypes, type LiveEventType } from './eventTypes.ts';

export { ephemeralEventTypes, type LiveEventType };

/** `event: match` on /api/events: a mutual like, with what the match overlay shows of the other person. */
export const matchEvent = z.object({ profile: matchedProfile });
export type MatchEvent = z.infer<typeof matchEvent>;

/** `event: match_seen`: the user marked the overlay of the match with this profile seen on some device; the others close theirs. */
export const matchSeenEvent = z.object({ profile_id: profileIdField });
export type MatchSeenEvent = z.infer<typeof matchSeenEvent>;

/**
 * `event: unmatched`: the match with this profile ended (unmatch, block or account deletion), told to both
 * people, so the person disappears from matches, chats, likers, the deck and an open conversation everywhere.
 */
export const unmatchedEvent = z.object({
  profile_id: profileIdField,
  /** The person deleted their profile (or account): an open conversation with them says so rather than closing. */
  deleted: z.optional(z.boolean()),
});
export type UnmatchedEvent = z.infer<typeof unmatchedEvent>;

/**
 * `POST /api/events/ack {ids}`: the app displayed these live events (by their SSE `id:`): a match overlay, a
 * message shown in the open conversation. Ids that are not the caller's are ignored. Answers `markResponse`.
 */
export const eventAckBody = z.strictObject({ ids: z.array(rowId('ids')).check(z.minLength(1), z.maxLength(100)) });

/**
 * Every live event `/api/events` sends, by its SSE `event:` name: the server writes only these shapes
 * (events/repository.ts takes this type) and the app parses them with these schemas.
 */
export const liveEventPayloads = {
  message: chatMessageEvent,
  read: chatReadEvent,
  match: matchEvent,
  /** The caller's badge counts, sent whenever one of them may have changed. */
  badges: badgeCounts,
  match_seen: matchSeenEvent,
  unmatched: unmatchedEvent,
  /** Ephemeral: carried by the event bus alone, never a row, sent without an `id:` (liveStream.ts). */
  typing: typingEvent,
} as const satisfies Record<LiveEventType, z.ZodMiniType>;

export type LiveEvent = {
  [K in LiveEventType]: { type: K; payload: z.infer<(typeof liveEventPayloads)[K]> };
}[LiveEventType];

export type EphemeralEvent = Extract<LiveEvent, { type: (typeof ephemeralEventTypes)[number] }>;
