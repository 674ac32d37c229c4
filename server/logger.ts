import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * Secrets never reach the log: request logging records no bodies, and these paths are censored
 * in case an object carrying one is logged by mistake.
 */
export const redactedPaths = [
  'password',
  '*.password',
  'token',
  '*.token',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-csrf-token"]',
  'res.headers["set-cookie"]',
];

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino({ level, redact: { paths: redactedPaths, censor: '[redacted]' } }, destination);
}
