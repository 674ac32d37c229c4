import type { z } from 'zod/mini';
import type { ErrorResponse } from '@contract/errors.ts';
import { readStored, storageKeys } from '../lib/storage.ts';
import { ApiError } from './ApiError.ts';
import { checkLater, isRecord, lazyList, lazySchema, type LazySchema } from './contractCheck.ts';
import { takeEarlyResponse } from './earlyResponses.ts';

export { ApiError, isRecord, lazyList, lazySchema };

/**
 * What a call's answer is checked against: its contract schema, checked at once (a screen whose chunk
 * carries zod anyway), or a `lazySchema`, checked after the first load (the session, the sign-ins, the
 * config, the CSRF token: issue 41) and at once only by its guard. Either way the answer's type is the
 * contract's.
 */
export type ResponseSchema = z.ZodMiniType | LazySchema<z.ZodMiniType>;
type Answer<S extends ResponseSchema> = S extends LazySchema<infer L> ? z.output<L> : z.output<S>;

const csrfTokenResponse = lazySchema(
  () => import('@contract/accounts.ts').then((m) => m.csrfTokenResponse),
  (answer) => typeof answer.csrf_token === 'string',
);

/**
 * The server's refusal (`errorResponse` of the contract), read without zod: every answer that is not
 * ok passes here, the first load's included.
 */
function refusalOf(payload: unknown): ErrorResponse | null {
  if (typeof payload !== 'object' || payload === null) return null;
  const { error, code, fields } = payload as Record<string, unknown>;
  if (typeof error !== 'string' || typeof code !== 'string') return null;
  const isFields =
    typeof fields === 'object' && fields !== null && Object.values(fields).every((v) => typeof v === 'string');
  return { ...payload, error, code, fields: isFields ? (fields as Record<string, string>) : undefined };
}

let csrfToken: Promise<string> | null = null;

/** `GET /api/csrf_token`, once per page (the token follows the browser's CSRF cookie, not the session). */
export function loadCsrfToken(force = false): Promise<string> {
  if (!csrfToken || force) {
    csrfToken = send('GET', '/api/csrf_token', csrfTokenResponse).then((r) => r.csrf_token);
    csrfToken.catch(() => {
      csrfToken = null;
    });
  }
  return csrfToken;
}

type Method = 'GET' | 'POST' | 'DELETE';

async function send<S extends ResponseSchema>(
  method: Method,
  path: string,
  schema: S,
  body?: unknown,
  retried = false,
): Promise<Answer<S>> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  // Spec section 7: the token when one is stored, otherwise the cookie session (with CSRF on POSTs).
  const token = readStored(storageKeys.jwtToken);
  if (token) headers.Authorization = `Bearer ${token}`;
  else if (method !== 'GET') headers['X-CSRF-Token'] = await loadCsrfToken();
  if (body !== undefined) headers['Content-Type'] = 'application/json';

  let response: Response;
  try {
    const early = method === 'GET' && !retried ? takeEarlyResponse(path, token) : undefined;
    response = await (early ??
      fetch(path, {
        method,
        headers,
        credentials: 'same-origin',
        body: body === undefined ? null : JSON.stringify(body),
      }));
  } catch {
    throw new ApiError(0, 'network', 'Network error');
  }
  const payload: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const refusal = refusalOf(payload);
    noticeRefusal(response.status, refusal?.code ?? null, token !== null);
    if (refusal?.code === 'csrf_failed' && !retried && !token) {
      await loadCsrfToken(true);
      return send(method, path, schema, body, true);
    }
    const retryAfter = Number(response.headers.get('Retry-After') ?? Number.NaN);
    if (refusal)
      throw new ApiError(
        response.status,
        refusal.code,
        refusal.error,
        refusal.fields,
        Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : undefined,
      );
    throw new ApiError(response.status, null, response.statusText || `HTTP ${response.status}`);
  }
  if ('load' in schema) {
    // The fields the app branches on, now; the whole contract once the page has settled.
    if (!schema.guard(payload)) throw new ApiError(response.status, 'bad_response', 'Unexpected response');
    checkLater(`${method} ${path}`, payload, schema);
    return payload as Answer<S>;
  }
  const parsed = schema.safeParse(payload);
  if (!parsed.success) throw new ApiError(response.status, 'bad_response', 'Unexpected response');
  return parsed.data as Answer<S>;
}

const unauthorizedListeners = new Set<() => void>();

/**
 * Tells the listeners when an answer says the session is gone (uploads, sent outside `send`, too): a 401,
 * or csrf_failed to a request sent with a token, since only a live token session skips the CSRF check
 * and a stored token the server no longer accepts is answered so on a POST.
 */
export function noticeRefusal(status: number, code: string | null, sentToken: boolean): void {
  if (status === 401 || (sentToken && code === 'csrf_failed')) for (const listener of unauthorizedListeners) listener();
}

/**
 * Called whenever the server answers 401 (the session ended: signed out elsewhere, expired, banned), so the
 * session is fetched again and the visitor sent to sign in (spec section 6) rather than left on an error.
 */
export function onUnauthorized(listener: () => void): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

export const api = {
  get: <S extends ResponseSchema>(path: string, schema: S) => send('GET', path, schema),
  post: <S extends ResponseSchema>(path: string, schema: S, body: unknown = {}) => send('POST', path, schema, body),
  /** A DELETE with no body (CSRF-checked like a POST on the cookie session). */
  delete: <S extends ResponseSchema>(path: string, schema: S) => send('DELETE', path, schema),
};
