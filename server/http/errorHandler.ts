import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import { DatabaseBusyError } from '../../db/errors.ts';
import type { ErrorResponse } from '../contract/errors.ts';
import { AppError, databaseBusy, photosUnavailable, unauthorized } from '../errors.ts';
import { PhotoStoreUnavailableError } from '../features/photos/photoStore.ts';
import type { Logger } from '../logger.ts';
import type { AppState } from './context.ts';

/** Errors thrown by Koa and its body parser carry a status and are meant for the client. */
interface HttpLikeError {
  status?: unknown;
  statusCode?: unknown;
  expose?: unknown;
  message?: unknown;
}

const codeByStatus: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'bad_request',
  501: 'not_implemented',
};

const bodylessErrors: Record<number, ErrorResponse> = {
  404: { error: 'Not found', code: 'not_found' },
  405: { error: 'Method not allowed', code: 'method_not_allowed' },
  501: { error: 'Not implemented', code: 'not_implemented' },
};

/**
 * The outermost middleware: gives each request an id, logs it once (never bodies, headers or query
 * values, which may hold passwords, codes or tokens), and turns every error into `{error, code}`.
 */
export function errorHandler(logger: Logger): Middleware<AppState> {
  return async (ctx, next) => {
    const started = performance.now();
    ctx.state.requestId = randomUUID();
    try {
      await next();
      // Answers Koa and the router leave without a body (no route; a method the route or the router does
      // not know, with its Allow header) get the API's error format like every other refusal.
      const status = ctx.status;
      const bodyless = bodylessErrors[status];
      if (bodyless && ctx.body === undefined && ctx.path.startsWith('/api/')) {
        ctx.status = status; // explicit, so that setting the body keeps it (Koa's default 404 would turn 200)
        ctx.body = bodyless;
      }
    } catch (error) {
      respondWithError(ctx, await endedBearerFirst(ctx, error), logger);
    } finally {
      logger.info(
        {
          reqId: ctx.state.requestId,
          method: ctx.method,
          path: ctx.state.logPath ?? ctx.path,
          status: ctx.status,
          ms: Math.round((performance.now() - started) * 10) / 10,
          // None for a like refused before its statement checked a deferred session (auth.ts): never read.
          user: ctx.state.auth?.userId,
        },
        'request',
      );
    }
  };
}

/**
 * A bearer token's session deferred to the route's statement (auth.ts) and refused before that statement ran
 * (a malformed body, say): a token whose session has ended is answered 401 first, as when the session loader
 * read it (csrf.ts). Read here, on the refusal only; if the read fails too, the first error stands.
 */
async function endedBearerFirst(ctx: Parameters<Middleware<AppState>>[0], error: unknown): Promise<unknown> {
  const deferred = ctx.state.deferredSession;
  if (deferred?.via !== 'bearer') return error;
  const auth = await deferred.resolve().catch(() => undefined);
  return auth === null ? unauthorized() : error;
}

function respondWithError(ctx: Parameters<Middleware<AppState>>[0], thrown: unknown, logger: Logger): void {
  if (thrown instanceof DatabaseBusyError) {
    logger.warn(
      { reqId: ctx.state.requestId, waitedMs: thrown.waitedMs },
      'database locked by another process: answered 503',
    );
  }
  if (thrown instanceof PhotoStoreUnavailableError) {
    // The cause (the bucket's answer or the network error) is for the log only.
    logger.error({ reqId: ctx.state.requestId, err: thrown }, 'photo store unavailable: answered 503');
  }
  const error =
    thrown instanceof DatabaseBusyError
      ? databaseBusy()
      : thrown instanceof PhotoStoreUnavailableError
        ? photosUnavailable()
        : thrown;
  if (error instanceof AppError) {
    ctx.status = error.status;
    if (error.details.retryAfterSeconds !== undefined) ctx.set('Retry-After', String(error.details.retryAfterSeconds));
    ctx.body = {
      error: error.message,
      code: error.code,
      ...(error.details.fields ? { fields: error.details.fields } : {}),
      ...error.details.extra,
    } satisfies ErrorResponse;
    return;
  }
  const http = (typeof error === 'object' && error !== null ? error : {}) as HttpLikeError;
  const status = Number(http.status ?? http.statusCode);
  if (Number.isInteger(status) && status >= 400 && status < 500) {
    ctx.status = status;
    ctx.body = {
      error: http.expose === true && typeof http.message === 'string' ? http.message : 'Bad request',
      code: codeByStatus[status] ?? 'bad_request',
    } satisfies ErrorResponse;
    return;
  }
  logger.error({ reqId: ctx.state.requestId, err: error }, 'unhandled error');
  ctx.status = 500;
  ctx.body = {
    error: 'Something went wrong. Please try again later.',
    code: 'internal',
    request_id: ctx.state.requestId,
  } satisfies ErrorResponse;
}
