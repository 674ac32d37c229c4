export type { CodeAttempts } from './codeAttempts.ts';
export { codeLifetimeSeconds, codeRefusal, type EmailCodes, maxSendsPerHour } from './codes.ts';
export { deleteCode, findNewestCode } from './repository.ts';
