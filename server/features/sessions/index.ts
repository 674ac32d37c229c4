export {
  findSessionCreatedAt,
  deleteOtherSessions,
  deleteSessionOfUser,
  deleteSessionsOfUser,
  listLiveSessions,
  liveSessionHashes,
} from './repository.ts';
export {
  type CheckedSession,
  type DeferredSession,
  deviceOf,
  type SessionCheck,
  type SessionService,
  type SignInDevice,
  type StartedSession,
} from './service.ts';
export type { SessionChangeFeed } from './sessionCache.ts';
export { SessionTokens } from './tokens.ts';
