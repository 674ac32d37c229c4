import type { z } from 'zod/mini';

/**
 * A response's contract schema fetched when needed (issue 41): `import type` gives the call its answer's
 * type from the contract, and the schema itself (with zod, about 9 kB) stays out of the first load.
 */
export interface LazySchema<S extends z.ZodMiniType> {
  readonly load: () => Promise<S>;
}

export function lazySchema<S extends z.ZodMiniType>(load: () => Promise<S>): LazySchema<S> {
  return { load };
}

/**
 * How long after the page's `load` (then at the browser's next idle moment) the first answers are checked:
 * zod and the schemas are fetched then, once the first screen is drawn and its images are in, so they never
 * compete with it.
 */
const settleMs = 2000;

let settled: Promise<void> | null = null;

/** Resolves once the page has loaded, settled for `settleMs` and the browser is idle. */
function pageSettled(): Promise<void> {
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
