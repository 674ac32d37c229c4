import { useEffect, useState } from 'react';
import type { PublicConfig } from '@contract/config.ts';

let known: PublicConfig | null = null;
let asking: Promise<PublicConfig | null> | null = null;

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
      (config) => (known = config),
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
  const [config, setConfig] = useState(known);
  useEffect(() => {
    if (!enabled || known) return;
    let current = true;
    void loadConfig().then((answer) => {
      if (current) setConfig(answer);
    });
    return () => {
      current = false;
    };
  }, [enabled]);
  return enabled ? (config ?? known) : null;
}
