import type { Agent } from 'node:https';
import type { Kysely } from 'kysely';
import webpush from 'web-push';
import type { Database, UserId } from '../../../db/schema.ts';
import type { PushSubscriptionRequest } from '../../contract/push.ts';
import type { Clock } from '../../clock.ts';
import { badRequest } from '../../errors.ts';
import { isAllowedEndpoint } from './endpoints.ts';
import { deleteSubscription, findVapidKeys, keepNewestSubscriptions, keepVapidKeys, saveSubscription, type VapidKeys } from './repository.ts';

export interface WebPushSettings {
  /** VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY; absent: made once and kept in the database. */
  keys?: VapidKeys | undefined;
  /** VAPID_SUBJECT, else a mailto: or the public URL: how a push service reaches the operator. */
  subject: string;
  /** The push services' origins an endpoint may be on (endpoints.ts). */
  endpointOrigins: readonly string[];
  /** Tests: trusts the local push-service stand-in's certificate. */
  agent?: Agent | undefined;
}

/** Most browsers keep a subscription per site; a person has a handful of browsers. More is a script. */
export const maxSubscriptionsPerUser = 20;

/**
 * Web Push for the app: the server's VAPID key pair and the browsers' subscriptions. Sending is the
 * notification outbox's (sender.ts), through the same queue, grace period and preferences as the bot and
 * e-mail notices.
 */
export class PushService {
  private keys: Promise<VapidKeys> | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    readonly settings: WebPushSettings,
  ) {}

  /** The key pair: the configured one, else the kept one, made on first use (every process reads the same row). */
  vapidKeys(): Promise<VapidKeys> {
    this.keys ??= (async () => {
      if (this.settings.keys) return this.settings.keys;
      const kept = await findVapidKeys(this.db);
      if (kept) return kept;
      await keepVapidKeys(this.db, webpush.generateVAPIDKeys(), this.clock.now().toISOString());
      const made = await findVapidKeys(this.db);
      if (!made) throw new Error('push: the VAPID key pair was not kept');
      return made;
    })().catch((error: unknown) => {
      this.keys = undefined;
      throw error;
    });
    return this.keys;
  }

  async publicKey(): Promise<string> {
    return (await this.vapidKeys()).publicKey;
  }

  async subscribe(userId: UserId, subscription: PushSubscriptionRequest): Promise<void> {
    if (!isAllowedEndpoint(subscription.endpoint, this.settings.endpointOrigins)) {
      throw badRequest('push_endpoint_not_allowed', 'This push service is not accepted');
    }
    const { endpoint, keys } = subscription;
    await this.db.transaction().execute(async (trx) => {
      await saveSubscription(trx, userId, { endpoint, p256dh: keys.p256dh, auth: keys.auth }, this.clock.now().toISOString());
      await keepNewestSubscriptions(trx, userId, maxSubscriptionsPerUser);
    });
  }

  async unsubscribe(userId: UserId, endpoint: string): Promise<void> {
    await deleteSubscription(this.db, userId, endpoint);
  }
}
