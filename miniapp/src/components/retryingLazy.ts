import { createElement, lazy, type ComponentProps, type FunctionComponent, type JSXElementConstructor } from 'react';

/** A lazy part's chunk did not load; `reload` makes the part's next render load it afresh. */
export class ChunkLoadError extends Error {
  constructor(
    cause: unknown,
    readonly reload: () => void,
  ) {
    super('A chunk did not load', { cause });
  }
}

/**
 * `React.lazy` that can load again after a failure: `lazy` keeps a rejected load for good, so a chunk that
 * failed once (offline for a moment) would fail every later showing too. The failure reaches a
 * ChunkBoundary as a ChunkLoadError, which, once it has caught it, swaps in a fresh `lazy` (`reload`), so
 * its retry, or the part's next showing, loads the chunk again. Not swapped at once: React renders the
 * failed lazy again to throw its error, and a fresh one there would load, fail and suspend for ever.
 */
// `any` as in React.lazy's own signature: the loaded component's props are whatever it declares.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function retryingLazy<C extends JSXElementConstructor<any>>(
  load: () => Promise<{ default: C }>,
): FunctionComponent<ComponentProps<C>> {
  const fresh = () =>
    lazy(async () => {
      try {
        return await load();
      } catch (error) {
        throw new ChunkLoadError(error, () => {
          current = fresh();
        });
      }
    });
  let current = fresh();
  return function RetryingLazy(props: ComponentProps<C>) {
    return createElement(current, props);
  };
}
