import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, UserId } from '../../../db/schema.ts';
import { addSeconds, type Clock } from '../../clock.ts';
import {
  handoverLifetimeSeconds,
  type HandoverPreviewResponse,
  type HandoverResponse,
} from '../../contract/handover.ts';
import { AppError } from '../../errors.ts';
import type { SignedIn } from '../accounts/index.ts';
import type { SessionService, SignInDevice } from '../sessions/index.ts';
import { consumeHandover, findLiveHandover, insertHandover } from './repository.ts';

const hash = (code: string) => createHash('sha256').update(code).digest('hex');
/** One answer for unknown, expired, used and ended alike: the page says the link is no longer valid. */
const invalid = () => new AppError(404, 'handover_invalid', 'This sign-in link is not valid any more');

/**
 * The token page's handover (spec: "a token-acquisition page that goes to /search once a token exists"),
 * by a one-time code instead of a token in the URL. A token in a link was stored by whichever browser
 * opened it, so a crafted link signed a victim's browser in to the attacker's account (login CSRF) without
 * a word. Now the link carries a code: 32 random bytes, kept as SHA-256, single use, five minutes, bound to
 * the session that made it (ended with it). The page shows whose account it is ("Continue as <name>?",
 * preview) and only a POST with the CSRF token, after the person agrees, starts the session (redeem).
 */
export class SessionHandoverService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly sessions: SessionService,
    private readonly clock: Clock,
    private readonly publicUrl: string,
  ) {}

  async issue(userId: UserId, sessionHash: string): Promise<HandoverResponse> {
    const code = randomBytes(32).toString('base64url');
    const now = this.clock.now();
    const expiresAt = addSeconds(now, handoverLifetimeSeconds).toISOString();
    await insertHandover(this.db, {
      code_hash: hash(code),
      session_hash: sessionHash,
      user_id: userId,
      created_at: now.toISOString(),
      expires_at: expiresAt,
    });
    // In the fragment: it never reaches a server log or a Referer.
    return { url: `${new URL('/token', this.publicUrl).toString()}#code=${code}`, expires_at: expiresAt };
  }

  /** Whose account the code opens, for the page's question; uses nothing up. */
  async preview(code: string): Promise<HandoverPreviewResponse> {
    const row = await findLiveHandover(this.db, hash(code), this.clock.now().toISOString());
    if (!row) throw invalid();
    return { name: row.name ?? null };
  }

  /** Uses the code up and starts this browser's session, with the handed-over session's sign-in time and end. */
  async redeem(code: string, device: SignInDevice): Promise<SignedIn> {
    const now = this.clock.now().toISOString();
    return this.db.transaction().execute(async (trx) => {
      const handed = await consumeHandover(trx, hash(code), now);
      if (!handed) throw invalid();
      return {
        userId: handed.userId,
        session: await this.sessions.start(handed.userId, device, trx, {
          signedInAt: handed.signedInAt,
          expiresAt: handed.expiresAt,
        }),
      };
    });
  }
}
