import { createHmac } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, UserId } from '../../../db/schema.ts';
import type { PushPayload } from '../../contract/push.ts';
import type { Logger } from '../../logger.ts';
import { deleteGoneSubscription, listSubscriptions } from './repository.ts';
import type { PushService } from './service.ts';

/** A push service may hold a message this long for a browser that is offline; a day-old match is still news. */
const timeToLiveSeconds = 24 * 60 * 60;
const requestTimeoutMs = 10_000;

/** What a push job came to: delivered to at least one browser, no browser left to deliver to, or refused by every one. */
export type PushOutcome = 'sent' | 'no_subscription' | 'refused';

/** Thrown when every browser failed in a way a retry may cure (the push service down, 429, 5xx). */
export class PushRetryableError extends Error {}

/**
 * Sends a notification to every browser the user subscribed: encrypted for each (RFC 8291, aes128gcm) and
 * signed with the server's VAPID key (RFC 8292), through the web-push package. A browser whose push service
 * answers 404 or 410 has unsubscribed: its subscription is removed. Another 4xx is that browser's problem
 * (logged, not retried); a 429, a 5xx or a network failure is retried by the outbox when no browser got it.
 */
export class WebPushSender {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly push: PushService,
    private readonly logger: Logger,
  ) {}

  async send(userId: UserId, payload: PushPayload): Promise<PushOutcome> {
    const subscriptions = await listSubscriptions(this.db, userId);
    if (subscriptions.length === 0) return 'no_subscription';
    const keys = await this.push.vapidKeys();
    // Loaded with the first push: most processes never send one (issue 41: memory).
    const { default: webpush, WebPushError } = await import('web-push');
    const { subject, agent } = this.push.settings;
    const body = JSON.stringify(payload);
    let delivered = 0;
    let retryable: unknown;
    for (const subscription of subscriptions) {
      try {
        await webpush.sendNotification(
          { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
          body,
          {
            vapidDetails: { subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
            TTL: timeToLiveSeconds,
            urgency: 'high',
            // The Topic header travels in clear to Google, Apple or Mozilla: an opaque name per person and thread,
            // never the conversation or profile ids, still lets a newer notice replace the waiting one.
            topic: createHmac('sha256', keys.privateKey)
              .update(`${userId}:${payload.tag}`)
              .digest('base64url')
              .slice(0, 32),
            contentEncoding: 'aes128gcm',
            timeout: requestTimeoutMs,
            ...(agent ? { agent } : {}),
          },
        );
        delivered += 1;
      } catch (error) {
        const status = error instanceof WebPushError ? error.statusCode : undefined;
        if (status === 404 || status === 410) {
          await deleteGoneSubscription(this.db, subscription.endpoint);
        } else if (status === undefined && !isNetworkError(error)) {
          // Not the push service's answer nor the network: this subscription cannot be encrypted to. Gone for good.
          this.logger.warn({ err: error, userId }, 'push: a subscription could not be used; removed');
          await deleteGoneSubscription(this.db, subscription.endpoint);
        } else if (status !== undefined && status >= 400 && status < 500 && status !== 429) {
          this.logger.warn({ status, userId }, 'push: a push service refused a notification');
        } else {
          retryable = error;
        }
      }
    }
    if (delivered > 0) return 'sent';
    if (retryable !== undefined)
      throw new PushRetryableError('push: no browser could be reached', { cause: retryable });
    return (await listSubscriptions(this.db, userId)).length === 0 ? 'no_subscription' : 'refused';
  }
}

/** A failure on the way to the push service (refused, reset, timed out, name not found): worth a retry. */
function isNetworkError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^(E[A-Z]+|UND_ERR_[A-Z_]+)$/.test(code);
}
