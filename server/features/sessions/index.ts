export {
  findSessionCreatedAt,
  deleteOtherSessions,
  deleteSessionOfUser,
  deleteSessionsOfUser,
  listLiveSessions,
  liveSessionHashes,
} from './repository.ts';
export { deviceOf, type SessionService, type SignInDevice, type StartedSession } from './service.ts';
export type { SessionChangeFeed } from './sessionCache.ts';
export { SessionTokens } from './tokens.ts';
