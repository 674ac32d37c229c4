import { createHmac } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, UserId } from '../../../db/schema.ts';
import { addSeconds, type Clock } from '../../clock.ts';
import type { SessionAuth } from '../../http/context.ts';
import { deviceLabel } from './deviceLabel.ts';
import { deleteSession, findLiveSession, insertSession, touchSession } from './repository.ts';
import { hashSessionId, newSessionId } from './sessionIds.ts';
import type { SessionTokens } from './tokens.ts';

/** Sessions end 30 days after sign-in, whatever happens in between. */
export const sessionLifetimeSeconds = 30 * 24 * 60 * 60;

/** How stale a session's "last seen" may get before a request writes it again: one write per session per interval. */
export const lastSeenIntervalSeconds = 5 * 60;

/** Where a sign-in comes from: the client address (ctx.ip) and the browser's User-Agent. */
export interface SignInDevice {
  ip: string;
  userAgent: string;
}

/** The device of a request, for a sign-in it makes. */
export const deviceOf = (ctx: { ip: string; get(field: string): string }): SignInDevice => ({ ip: ctx.ip, userAgent: ctx.get('User-Agent') });

export interface StartedSession {
  sessionId: string;
  expiresAt: Date;
  token: string;
}

export class SessionService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly tokens: SessionTokens,
    private readonly clock: Clock,
    private readonly deviceSecret: string,
  ) {}

  /**
   * A fresh id on every sign-in, so a session id planted before login is worth nothing after it. The row is
   * written with a keyed hash of the network address and browser it signed in from, so the moderation job
   * can see several accounts used from one device; neither the address nor the browser string is stored,
   * and the mark goes with the session when it expires.
   */
  async start(userId: UserId, device: SignInDevice, db: Kysely<Database> = this.db): Promise<StartedSession> {
    const now = this.clock.now();
    const sessionId = newSessionId();
    const expiresAt = addSeconds(now, sessionLifetimeSeconds);
    await insertSession(db, {
      id_hash: hashSessionId(sessionId),
      user_id: userId,
      created_at: now.toISOString(),
      expires_at: expiresAt.toISOString(),
      device_hash: createHmac('sha256', `device:${this.deviceSecret}`).update(`${device.ip}|${device.userAgent}`).digest('base64url'),
      device_label: deviceLabel(device.userAgent),
      last_seen_at: now.toISOString(),
    });
    return { sessionId, expiresAt, token: await this.tokens.sign(sessionId, userId, now, expiresAt) };
  }

  async resolveSessionId(sessionId: string, via: SessionAuth['via']): Promise<SessionAuth | null> {
    const sessionHash = hashSessionId(sessionId);
    const now = this.clock.now();
    const row = await findLiveSession(this.db, sessionHash, now);
    if (!row || row.banned_at) return null;
    // Bookkeeping for the owner's devices list, not a change a GET makes to anything the user sees. Not
    // awaited and its failure ignored: a busy or locked database must not slow or refuse a read for it.
    if (!row.last_seen_at || row.last_seen_at < addSeconds(now, -lastSeenIntervalSeconds).toISOString()) {
      touchSession(this.db, sessionHash, now.toISOString()).catch(() => undefined);
    }
    return {
      userId: row.user_id,
      sessionHash,
      via,
      verified: row.verified_at !== null,
      language: row.language,
    };
  }

  async resolveToken(token: string): Promise<SessionAuth | null> {
    const sessionId = await this.tokens.verify(token, this.clock.now());
    return sessionId ? this.resolveSessionId(sessionId, 'bearer') : null;
  }

  async end(sessionHash: string): Promise<void> {
    await deleteSession(this.db, sessionHash);
  }
}
