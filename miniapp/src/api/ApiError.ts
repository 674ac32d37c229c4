/**
 * A failed call: the server's `{error, code}` when it sent one, else the HTTP status (0: no network). In a
 * module of its own, without the contract (zod), so the error states in the entry chunk can recognise it.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | null,
    message: string,
    readonly fields?: Record<string, string>,
    /**
     * A 429's Retry-After, in seconds from when the answer came: relative, so a phone whose clock is wrong
     * still counts down the right time (the body's `resets_at` is the server's clock).
     */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}
