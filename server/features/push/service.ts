import type { Agent } from 'node:https';
import type { Kysely } from 'kysely';
import { createECDH } from 'node:crypto';
import type { Database, UserId } from '../../../db/schema.ts';
import type { PushSubscriptionRequest } from '../../contract/push.ts';
import type { Clock } from '../../clock.ts';
import { badRequest } from '../../errors.ts';
import { isAllowedEndpoint } from './endpoints.ts';
import {
  deleteSubscription,
  findVapidKeys,
  keepNewestSubscriptions,
  saveSubscription,
  type VapidKeys,
} from './repository.ts';

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

  /** The key pair: the configured one, else the one the migration made and kept (every process reads the same row). */
  vapidKeys(): Promise<VapidKeys> {
    this.keys ??= (async () => {
      if (this.settings.keys) return this.settings.keys;
      const kept = await findVapidKeys(this.db);
      if (!kept) throw new Error('push: no VAPID key pair in push_keys (the web_push migration makes it)');
      return kept;
    })().catch((error: unknown) => {
      this.keys = undefined;
      throw error;
    });
    return this.keys;
  }

  async publicKey(): Promise<string> {
    return (await this.vapidKeys()).publicKey;
  }

  /** Stores the browser's subscription for this session (it ends with the session: a sign-out stops the pushes). */
  async subscribe(userId: UserId, sessionHash: string, subscription: PushSubscriptionRequest): Promise<void> {
    if (!isAllowedEndpoint(subscription.endpoint, this.settings.endpointOrigins)) {
      throw badRequest('push_endpoint_not_allowed', 'This push service is not accepted');
    }
    const { endpoint, keys } = subscription;
    // A key that is not a point on P-256 could never be encrypted to: every push would fail.
    if (!isP256Point(keys.p256dh)) throw badRequest('push_key_invalid', 'The browser key is not valid');
    await this.db.transaction().execute(async (trx) => {
      await saveSubscription(
        trx,
        userId,
        sessionHash,
        { endpoint, p256dh: keys.p256dh, auth: keys.auth },
        this.clock.now().toISOString(),
      );
      await keepNewestSubscriptions(trx, userId, maxSubscriptionsPerUser);
    });
  }

  async unsubscribe(userId: UserId, endpoint: string): Promise<void> {
    await deleteSubscription(this.db, userId, endpoint);
  }
}

function isP256Point(base64url: string): boolean {
  try {
    const probe = createECDH('prime256v1');
    probe.generateKeys();
    probe.computeSecret(Buffer.from(base64url, 'base64url'));
    return true;
  } catch {
    return false;
  }
}
