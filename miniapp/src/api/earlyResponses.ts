/**
 * Answers public/boot.js asked for while the page was starting (issue 41): the session and, on /search,
 * the deck's first card, requested beside the entry script instead of after it has run. Each is taken
 * once, by the first GET of exactly that address made with the same token, while the page is still at
 * the path it opened at and within its first seconds; anything else is fetched as usual (a read after a
 * redirect, a sign-in or a while must see the state of then, not of the page's start).
 */
interface EarlyRequests {
  /** The path the page opened at, in lower case. */
  path: string;
  token: string | null;
  responses: Record<string, Promise<Response> | undefined>;
  /** Set once the app has drawn its first screen: boot.js paints no first card after that (lib/bootCard.ts). */
  released?: boolean;
}

declare global {
  interface Window {
    __iskraEarly?: EarlyRequests;
  }
}

/** How long after the page's start an early answer may still be taken. */
const freshForMs = 15_000;

export function takeEarlyResponse(path: string, token: string | null): Promise<Response> | undefined {
  const early = window.__iskraEarly;
  const response = early?.responses[path];
  if (!early || !response) return undefined;
  early.responses[path] = undefined;
  const samePage = location.pathname.toLowerCase() === early.path && performance.now() < freshForMs;
  // Once a read may not take them, none may: the rest are forgotten.
  if (!samePage) early.responses = {};
  return samePage && early.token === token ? response : undefined;
}
