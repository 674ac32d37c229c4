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

/** Whether the page is still the one boot.js started, early enough for its answers. */
function samePage(early: EarlyRequests): boolean {
  return location.pathname.toLowerCase() === early.path && performance.now() < freshForMs;
}

export function takeEarlyResponse(path: string, token: string | null): Promise<Response> | undefined {
  const early = window.__iskraEarly;
  const response = early?.responses[path];
  if (!early || !response) return undefined;
  early.responses[path] = undefined;
  const usable = samePage(early);
  // Once a read may not take them, none may: the rest are forgotten.
  if (!usable) early.responses = {};
  return usable && early.token === token ? response : undefined;
}

/**
 * Whether boot.js asked for an answer under `endpoint` (`/api/search`) that the read of `path` will not
 * take (another address, another token, too late): what boot.js built from it (the first card's photo,
 * lib/bootCard.ts) is then not what this read will show.
 */
export function earlyResponsePassedBy(endpoint: string, path: string, token: string | null): boolean {
  const early = window.__iskraEarly;
  if (!early) return false;
  const asked = Object.keys(early.responses).some(
    (address) => address.split('?')[0] === endpoint && early.responses[address] !== undefined,
  );
  if (!asked) return false;
  return !(early.responses[path] !== undefined && samePage(early) && early.token === token);
}
