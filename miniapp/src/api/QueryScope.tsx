import { QueryClientProvider } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { queryClient } from './queryClient.ts';

/**
 * A screen (or a part of the frame) that reads through the query cache, inside its provider. Loaded with
 * such a screen's code (components/lazyScreen.ts): the landing and the sign-in form do not use the cache,
 * so their first load carries no TanStack Query (issue 41). Every scope shares the one client.
 */
export function withQueries<P extends object>(Screen: ComponentType<P>): ComponentType<P> {
  function Scoped(props: P) {
    return (
      <QueryClientProvider client={queryClient}>
        <Screen {...props} />
      </QueryClientProvider>
    );
  }
  Scoped.displayName = `withQueries(${Screen.displayName ?? Screen.name})`;
  return Scoped;
}
