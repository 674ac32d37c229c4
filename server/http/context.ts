import type { ParameterizedContext } from 'koa';
import type Router from '@koa/router';
import type { UserId } from '../../db/schema.ts';

export interface SessionAuth {
  /** The account (`users.id`), not its profile. */
  userId: UserId;
  /** SHA-256 of the session id, the key of the sessions row. */
  sessionHash: string;
  /** How this request presented the session: the cookie needs CSRF protection, a bearer token does not. */
  via: 'cookie' | 'bearer';
  verified: boolean;
  language: 'ru' | 'en';
}

export interface AppState {
  requestId: string;
  auth: SessionAuth | null;
  /**
   * A request that may write, sent with a bearer token of ours whose session has ended (signed out
   * elsewhere, expired, banned): answered 401 before the CSRF check (csrf.ts).
   */
  endedBearer?: boolean;
  /** The path as the request log records it, when the real one carries a secret (an unsubscribe token). */
  logPath?: string;
  /**
   * The SHA-256 sources (`'sha256-…'`) of the inline scripts of the page being sent (index.html carries
   * boot.js inline, issue 41): added to its CSP's script-src by securityHeaders.ts.
   */
  scriptHashes?: string[];
  /** An admin's name for the audit log (`email:…`, `telegram:…`), set by the console's gate (features/admin). */
  admin?: string;
}

export type AppContext = ParameterizedContext<AppState>;
export type AppRouter = Router<AppState>;
