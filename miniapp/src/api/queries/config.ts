import { useEffect, useSyncExternalStore } from 'react';
import type { PublicConfig } from '@contract/config.ts';

let known: PublicConfig | null = null;
let asking: Promise<PublicConfig | null> | null = null;
/** The mounted readers: each renders again when the config comes, whoever asked for it. */
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const snapshot = () => known;

/** `GET /api/config`, once per page while it succeeds. */
function loadConfig(): Promise<PublicConfig | null> {
  asking ??= import('../client.ts')
    .then(({ api, lazySchema }) =>
      api.get(
        '/api/config',
        lazySchema(() => import('@contract/config.ts').then((m) => m.publicConfigResponse)),
      ),
    )
    .then(
      (config) => {
        known = config;
        for (const listener of listeners) listener();
        return config;
      },
      () => {
        // Asked for again by the next screen that wants it.
        asking = null;
        return null;
      },
    );
  return asking;
}

/**
 * `GET /api/config`, once per page. The landing's footer and the sign-in form ask for it, so it is kept
 * here rather than in the query cache (issue 41: neither loads TanStack Query), and the API client is
 * imported when the call is made, after the first paint. An unreachable config just hides the optional
 * parts (null).
 */
export function usePublicConfig(enabled = true): PublicConfig | null {
  // A store rather than state: an answer that comes between this render and its effect, or to another
  // reader's request after this one's failed, is seen here too.
  const config = useSyncExternalStore(subscribe, snapshot);
  useEffect(() => {
    if (enabled && !known) void loadConfig();
  }, [enabled]);
  return enabled ? config : null;
}
