import type { z } from 'zod/mini';

/**
 * A response's contract schema fetched when needed (issue 41): `import type` gives the call its answer's
 * type from the contract, and the schema itself (with zod, about 9 kB) stays out of the first load.
 * `guard` checks at once, without zod, the few fields the app branches on (a sign-in's `current_user`,
 * `authorized`): a malformed answer is refused there as it was by the full check (`bad_response`),
 * rather than taken for a signed-out user or breaking the screen; the rest is checked later.
 */
export interface LazySchema<S extends z.ZodMiniType> {
  readonly load: () => Promise<S>;
  /** The answer's shape at once: an object (`lazySchema`) or a list of objects (`lazyList`), and the guard's fields. */
  readonly guard: (payload: unknown) => boolean;
}

/**
 * A type without its brands (a profile id is a `number` branded `ProfileId` once parsed): a brand is a
 * type's mark only, nothing at run time, so an answer read as sent is what parsing would have given.
 */
type Unbranded<T> = T extends z.core.$brand
  ? T extends number
    ? number
    : T extends string
      ? string
      : T
  : T extends object
    ? { [K in keyof T]: Unbranded<T[K]> }
    : T;

/**
 * `unknown` for a schema whose answer is read as sent (input and output alike, brands aside), `never`
 * otherwise: the answer is not parsed before the app uses it, so a schema that transforms (a default, a
 * date) is refused.
 */
type Untransformed<S extends z.ZodMiniType> = [z.input<S>] extends [Unbranded<z.output<S>>]
  ? [Unbranded<z.output<S>>] extends [z.input<S>]
    ? unknown
    : never
  : never;

export function lazySchema<S extends z.ZodMiniType>(
  load: () => Promise<S & Untransformed<S>>,
  guard: (payload: Record<string, unknown>) => boolean = () => true,
): LazySchema<S> {
  return { load, guard: (payload) => isRecord(payload) && guard(payload) };
}

/** `lazySchema` for an answer that is a list: each item an object that passes `guard`. */
export function lazyList<S extends z.ZodMiniType>(
  load: () => Promise<S & Untransformed<S>>,
  guard: (item: Record<string, unknown>) => boolean = () => true,
): LazySchema<S> {
  return { load, guard: (payload) => Array.isArray(payload) && payload.every((item) => isRecord(item) && guard(item)) };
}

/** A guard's helper: `value` is a plain object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * How long after the page's `load` (then at the browser's next idle moment) the first answers are checked:
 * zod and the schemas are fetched then, once the first screen is drawn and its images are in, so they never
 * compete with it. The browser tests set `iskraSettleMs` before the app runs (miniapp/e2e/harness.ts): the
 * same order of events with a shorter wait, since every test that waits for the live connection or a count
 * on the deck would otherwise wait these seconds.
 */
const settleMs = (globalThis as { iskraSettleMs?: number }).iskraSettleMs ?? 2000;

let settled: Promise<void> | null = null;

/**
 * Resolves once the page has loaded, settled for `settleMs` and the browser is idle: also when the deck
 * fetches the parts its first card does not need (screens/Search/deckExtras.ts).
 */
export function pageSettled(): Promise<void> {
  settled ??= new Promise((resolve) => {
    const idle = () =>
      setTimeout(() => {
        if ('requestIdleCallback' in window) window.requestIdleCallback(() => resolve(), { timeout: settleMs });
        else resolve();
      }, settleMs);
    if (document.readyState === 'complete') idle();
    else window.addEventListener('load', idle, { once: true });
  });
  return settled;
}

/**
 * Checks an answer the app already uses against its contract, off the first load's critical path. A
 * mismatch is a console error (the browser tests fail on those, so contract drift is still caught); the
 * app carries on with the answer as the server sent it, since no response schema transforms what it reads.
 */
export function checkLater(path: string, payload: unknown, schema: LazySchema<z.ZodMiniType>): void {
  void pageSettled()
    .then(schema.load)
    .then(
      (loaded) => {
        const result = loaded.safeParse(payload);
        if (!result.success)
          console.error(`The answer to ${path} does not match the contract:`, JSON.stringify(result.error.issues));
      },
      // The schema's chunk did not load (offline, a new deploy): nothing to check against this time.
      () => undefined,
    );
}
