import { z } from 'zod/mini';

/** `bytes` in base64url without padding, as browsers and the web-push package write keys (the length says the size). */
const base64url = (bytes: number, what: string) =>
  z
    .string({ error: `${what} is required` })
    .check(
      z.regex(
        new RegExp(`^[A-Za-z0-9_-]{${Math.ceil((bytes * 4) / 3)}}$`),
        `${what} must be ${bytes} bytes in base64url`,
      ),
    );

/** `GET /api/push/key`: the server's VAPID public key (an uncompressed P-256 point, 65 bytes), for PushManager.subscribe. */
export const pushKeyResponse = z.object({ public_key: z.string() });
export type PushKeyResponse = z.infer<typeof pushKeyResponse>;

/** A push service's address for one browser (RFC 8030); which services are accepted is the server's list. */
const endpoint = z
  .url({ protocol: /^https$/, error: 'endpoint must be an https URL' })
  .check(z.maxLength(1000, 'endpoint is too long'));

/** `POST /api/push/subscriptions`: `PushSubscription.toJSON()` as the browser gives it (RFC 8291 keys). */
export const pushSubscriptionRequest = z.object({
  endpoint,
  expirationTime: z.optional(z.nullable(z.number())),
  keys: z.object({
    /** The browser's P-256 public key, uncompressed (65 bytes). */
    p256dh: base64url(65, 'keys.p256dh'),
    /** The shared authentication secret (16 bytes). */
    auth: base64url(16, 'keys.auth'),
  }),
  csrf_token: z.optional(z.string()),
});
export type PushSubscriptionRequest = z.infer<typeof pushSubscriptionRequest>;

/** `POST /api/push/subscriptions/delete`: the browser's endpoint (unsubscribed there, or the person turned it off). */
export const pushUnsubscribeRequest = z.strictObject({ endpoint, csrf_token: z.optional(z.string()) });

/** What a push message carries (encrypted to the browser): the service worker shows it and opens `url` on a tap. */
export const pushPayload = z.object({
  title: z.string(),
  body: z.string(),
  /** A path in the app (`/chat/12`), opened on a tap. */
  url: z.string(),
  /** Notifications with one tag replace each other (one per conversation, one for likes). */
  tag: z.string(),
  kind: z.enum(['match', 'message', 'like']),
});
export type PushPayload = z.infer<typeof pushPayload>;
