import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, far above the 128 the threat model asks for. */
export function newSessionId(): string {
  return randomBytes(32).toString('base64url');
}

/** The database keeps only this hash, so reading the sessions table does not let anyone sign in. */
export function hashSessionId(sessionId: string): string {
  return createHash('sha256').update(sessionId).digest('base64url');
}
