import { createHmac } from 'node:crypto';
import type { UserId } from '../../../db/schema.ts';
import { safeEqual } from '../../safeEqual.ts';

/**
 * The one-click unsubscribe token of a user's e-mails: `<userId>.<HMAC>` under the session secret, so it
 * needs no sign-in and no table, and cannot be guessed or made for someone else. It only ever turns e-mail
 * notifications off, so it may stay valid for as long as the secret does.
 */
export class UnsubscribeTokens {
  constructor(private readonly secret: string) {}

  private mac(userId: UserId): string {
    return createHmac('sha256', this.secret).update(`email-unsubscribe:${userId}`).digest('base64url');
  }

  issue(userId: UserId): string {
    return `${userId}.${this.mac(userId)}`;
  }

  /** The user the token was issued to; null for anything else. */
  verify(token: string): UserId | null {
    const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
    if (!match?.[1] || !match[2]) return null;
    const userId = Number(match[1]) as UserId;
    return safeEqual(match[2], this.mac(userId)) ? userId : null;
  }
}
