import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { currentUserResponse, type CurrentUserResponse } from '../../contract/accounts.ts';
import type { SessionAuth } from '../../http/context.ts';
import { findProfileSummary } from '../profiles/index.ts';
import type { SessionService } from '../sessions/index.ts';
import type { SignedIn } from './service.ts';

const anonymous: CurrentUserResponse = { authorized: false, user_verified: false, userprofile: null, user_id: null };

/**
 * `GET /api/current_user` for a session, or for none. The answers that change what it says (a sign-in, a
 * profile saved) carry it too, made here, so they always equal what the GET gives next.
 */
export async function presentCurrentUser(
  db: Kysely<Database>,
  auth: Pick<SessionAuth, 'userId' | 'verified' | 'language'> | null,
): Promise<CurrentUserResponse> {
  if (!auth) return anonymous;
  const userprofile = (await findProfileSummary(db, auth.userId)) ?? null;
  return currentUserResponse.parse({
    authorized: true,
    user_verified: auth.verified,
    userprofile,
    user_id: auth.userId,
    language: auth.language,
  });
}

/**
 * The same for a session just started: from the account as the sign-in read it (a password sign-in, which
 * read it a moment before: one round trip fewer), else read back as the next request carrying the session will.
 */
export async function presentSignedInUser(
  db: Kysely<Database>,
  sessions: SessionService,
  signedIn: Pick<SignedIn, 'session' | 'account'>,
): Promise<CurrentUserResponse> {
  return presentCurrentUser(
    db,
    signedIn.account ?? (await sessions.resolveSessionId(signedIn.session.sessionId, 'cookie')),
  );
}
