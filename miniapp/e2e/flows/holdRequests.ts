import type { BrowserContext, Route } from 'playwright-core';

/** Requests of a context held back until `release`: `asked` counts those held meanwhile. */
export interface Held {
  asked(): number;
  release(): Promise<void>;
}

/** Holds the context's requests to `url` until `release` is called; after that they go through. */
export async function holdRequests(context: BrowserContext, url: RegExp): Promise<Held> {
  const held: Route[] = [];
  let holding = true;
  await context.route(url, async (route) => {
    if (holding) held.push(route);
    else await route.continue();
  });
  return {
    asked: () => held.length,
    release: async () => {
      holding = false;
      for (const route of held.splice(0)) await route.continue();
    },
  };
}

/**
 * Holds the entry script back until the returned function is called: the page as it is before the app runs
 * (what index.html and boot.js do alone).
 */
export async function holdEntry(context: BrowserContext): Promise<() => void> {
  const entry = await holdRequests(context, /\/assets\/index-[^/]*\.js$/);
  return () => void entry.release();
}
