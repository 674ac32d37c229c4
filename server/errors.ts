/**
 * Expected failures: an HTTP status, a stable snake_case code the app translates, and an English message.
 * Anything that is not an AppError becomes a bland 500 (DESIGN.md section 4).
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: {
      fields?: Record<string, string>;
      retryAfterSeconds?: number;
      /** More machine-readable facts for the app, e.g. when a limit resets. */
      extra?: Record<string, string | number>;
    } = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (code: string, message: string, fields?: Record<string, string>) =>
  new AppError(400, code, message, fields ? { fields } : {});
export const unauthorized = (message = 'Unauthorized. Please log in.', code = 'unauthorized') =>
  new AppError(401, code, message);
export const forbidden = (code: string, message: string) => new AppError(403, code, message);
export const notFound = (code = 'not_found', message = 'Not found') => new AppError(404, code, message);
export const conflict = (code: string, message: string) => new AppError(409, code, message);
export const tooManyRequests = (code: string, message: string, retryAfterSeconds: number) =>
  new AppError(429, code, message, { retryAfterSeconds: Math.max(1, Math.ceil(retryAfterSeconds)) });
/**
 * Another process (the admin CLI, a job run by hand, a backup) held the SQLite file's write lock for longer
 * than a request may wait. Such locks last moments, so the client is told to try again shortly.
 */
export const databaseBusy = () =>
  new AppError(503, 'database_busy', 'The service is busy. Please try again in a moment.', { retryAfterSeconds: 2 });
/** The photo store (S3_BUCKET) failed or did not answer: see PhotoStoreUnavailableError. */
export const photosUnavailable = () =>
  new AppError(503, 'photos_unavailable', 'Photos are unavailable for a moment. Please try again shortly.', {
    retryAfterSeconds: 5,
  });
