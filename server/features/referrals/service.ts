import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../../db/errors.ts';
import type { Database, UserId } from '../../../db/schema.ts';
import type { Clock } from '../../clock.ts';
import { referralCodePattern, referralStartPrefix, type ReferralResponse } from '../../contract/referrals.ts';
import type { Logger } from '../../logger.ts';
import { findCodeOfUser, findUserOfCode, insertCode, insertReferral } from './repository.ts';

const alphabet = 'abcdefghijkmnpqrstuvwxyz23456789';

/** 10 random characters of 32 (50 bits): unguessable, and unrelated to the user id. */
function newCode(): string {
  return Array.from(randomBytes(10), (byte) => alphabet[byte % alphabet.length]).join('');
}

/** The code in a Telegram start parameter (`ref_<code>`), or undefined for any other parameter. */
export function referralFromStartParam(startParam: string | undefined): string | undefined {
  return startParam?.startsWith(referralStartPrefix) ? startParam.slice(referralStartPrefix.length) : undefined;
}

/**
 * Invite a friend: each account's stable code and links, and who a new account signed up through.
 * A referral is only ever a statistic: an unknown or own code is ignored, and recording it never
 * fails the sign-up that carried it.
 */
export class ReferralService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly links: { publicUrl: string; botUsername: string | null },
  ) {}

  async codeOf(userId: UserId): Promise<string> {
    const known = await findCodeOfUser(this.db, userId);
    if (known) return known;
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        const code = newCode();
        await insertCode(this.db, userId, code, this.clock.now().toISOString());
        return code;
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        // The same account asking twice at once (its row won), or, very rarely, a code taken: look again.
        const winner = await findCodeOfUser(this.db, userId);
        if (winner) return winner;
      }
    }
    throw new Error('no free referral code found');
  }

  async invitation(userId: UserId): Promise<ReferralResponse> {
    const code = await this.codeOf(userId);
    const web = new URL(this.links.publicUrl);
    web.searchParams.set('ref', code);
    const bot = this.links.botUsername?.replace(/^@/, '');
    return {
      code,
      web_link: web.toString(),
      telegram_link: bot ? `https://t.me/${bot}?startapp=${referralStartPrefix}${code}` : null,
    };
  }

  /** A new account arrived with `code`: remember who invited it (once; unknown and own codes ignored). */
  async recordSignUp(userId: UserId, code: string | undefined): Promise<boolean> {
    if (!code || !referralCodePattern.test(code)) return false;
    try {
      const referrer = await findUserOfCode(this.db, code);
      if (referrer === undefined || referrer === userId) return false;
      return await insertReferral(this.db, userId, referrer, code, this.clock.now().toISOString());
    } catch (error) {
      this.logger.warn({ err: error, userId }, 'referral not recorded');
      return false;
    }
  }
}
