/**
 * The names of the live events (`event:` on /api/events), free of zod: the app's stream subscribes to them
 * before the schemas that check their payloads have loaded (issue 41). `events.ts` keys its schemas by them.
 */
export const liveEventTypes = ['message', 'read', 'match', 'badges', 'match_seen', 'unmatched', 'typing'] as const;
export type LiveEventType = (typeof liveEventTypes)[number];

/** The live events that are never stored: the bus hands them to the open streams, and a stream that is not open misses them. */
export const ephemeralEventTypes = ['typing'] as const satisfies readonly LiveEventType[];
