import { createElement, lazy, useState, type ComponentType, type FunctionComponent } from 'react';
import { wantCache } from '../api/sessionCache.ts';
import { ChunkLoadError } from './retryingLazy.ts';

/** A route's screen, loaded on first use like `React.lazy`, that can also be loaded before it renders. */
export interface LazyScreen<P extends object> extends FunctionComponent<P> {
  /** Loads the screen's code; once it has come, the screen renders at once, without a Suspense fallback. */
  preload: () => Promise<void>;
}

/**
 * `React.lazy` with a `preload`. A lazy component suspends on its first render even when its chunk is
 * already in the browser (boot.js preloads the first screen's), and React 19 holds back content that
 * replaces a fallback for up to 300 ms: the first screen, and its largest paint, came that much later
 * than its code (issue 41). Preloaded before the first render (`main.tsx`), the screen is rendered
 * directly. Each mounted screen keeps the component it started with, so a later render never swaps the
 * lazy wrapper for the loaded component under it (which would remount the screen and lose its state).
 * A failed load is a `ChunkLoadError`: a screen's reaches the app's error page (components/ErrorBoundary.tsx),
 * and a part of the frame inside a `ChunkBoundary` (the tab bar, the live connection) loads again on its next
 * mount, as `retryingLazy`'s parts do (`React.lazy` keeps a failure for good).
 */
export function lazyScreen<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
  /**
   * `queries: false`: the screen reads nothing through the query cache, so it comes without TanStack
   * Query (the landing, the sign-in forms, the deck, the tab bar: issue 41). Any other screen is loaded
   * with the cache and rendered inside its provider (api/QueryScope.tsx); asking for it also tells the
   * frame to start the live connection (api/sessionCache.ts `wantCache`).
   */
  { queries = true }: { queries?: boolean } = {},
): LazyScreen<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<{ default: ComponentType<P> }> | null = null;
  const scoped = (): Promise<{ default: ComponentType<P> }> => {
    if (!queries) return load();
    wantCache();
    return Promise.all([load(), import('../api/QueryScope.tsx')]).then(([module, { withQueries }]) => ({
      default: withQueries(module.default),
    }));
  };
  const start = () => {
    loading ??= scoped().then(
      (module) => {
        loaded = module.default;
        return module;
      },
      (error: unknown) => {
        // A failed preload (a network error) leaves the render to try again.
        loading = null;
        throw error;
      },
    );
    return loading;
  };
  const fresh = () =>
    lazy(() =>
      start().catch((error: unknown) => {
        throw new ChunkLoadError(error, () => {
          Lazy = fresh();
        });
      }),
    );
  let Lazy = fresh();
  function Screen(props: P) {
    const [component] = useState<ComponentType<P>>(() => loaded ?? Lazy);
    return createElement(component, props);
  }
  Screen.preload = () => start().then(() => undefined);
  return Screen;
}
