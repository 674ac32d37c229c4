import { z } from 'zod/mini';
import { chatMessageEvent, chatReadEvent } from './chat.ts';
import { matchedProfile } from './discovery.ts';

/** `event: match` on /api/events: a mutual like, with what the match overlay shows of the other person. */
export const matchEvent = z.object({ profile: matchedProfile });
export type MatchEvent = z.infer<typeof matchEvent>;

/**
 * Every live event `/api/events` sends, by its SSE `event:` name: the server writes only these shapes
 * (events/repository.ts takes this type) and the app parses them with these schemas.
 */
export const liveEventPayloads = {
  message: chatMessageEvent,
  read: chatReadEvent,
  match: matchEvent,
} as const;

export type LiveEventType = keyof typeof liveEventPayloads;
export type LiveEvent = { [K in LiveEventType]: { type: K; payload: z.infer<(typeof liveEventPayloads)[K]> } }[LiveEventType];
