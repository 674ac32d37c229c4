import { useCallback, useEffect, useState } from 'react';
import { ApiError } from './client.ts';

export type Resource<T> =
  | { state: 'loading' }
  | { state: 'error'; error: ApiError }
  | { state: 'ready'; data: T };

/** Loads once per mount (and on reload()); every screen renders the three states explicitly. */
export function useResource<T>(load: () => Promise<T>): [Resource<T>, () => void] {
  const [resource, setResource] = useState<Resource<T>>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    load().then(
      (data) => live && setResource({ state: 'ready', data }),
      (error: unknown) =>
        live && setResource({ state: 'error', error: error instanceof ApiError ? error : new ApiError(0, null, String(error)) }),
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- loads once per attempt by design
  }, [attempt]);
  const reload = useCallback(() => {
    setResource({ state: 'loading' });
    setAttempt((n) => n + 1);
  }, []);
  return [resource, reload];
}
