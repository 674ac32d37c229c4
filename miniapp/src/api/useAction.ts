import { useCallback, useState } from 'react';

const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

interface ActionState {
  status: 'idle' | 'pending' | 'success' | 'error';
  error: Error | null;
}

/**
 * A call a form makes (a sign-in), with the part of TanStack Query's `useMutation` the sign-in forms use:
 * `mutate` with callbacks, `mutateAsync`, `reset`, `isPending`, `isSuccess` and `error`. The forms come without the
 * query cache (issue 41: /login's first load), and a sign-in's answer goes to the session, not the cache.
 */
export function useAction<V, R>(run: (variables: V) => Promise<R>, onSuccess?: () => void) {
  const [state, setState] = useState<ActionState>({ status: 'idle', error: null });
  const mutateAsync = useCallback(
    async (variables: V): Promise<R> => {
      setState({ status: 'pending', error: null });
      try {
        const answer = await run(variables);
        onSuccess?.();
        setState({ status: 'success', error: null });
        return answer;
      } catch (error) {
        setState({ status: 'error', error: asError(error) });
        throw error;
      }
    },
    [run, onSuccess],
  );
  const mutate = useCallback(
    (variables: V, callbacks: { onSuccess?: (answer: R) => void; onError?: (error: Error) => void } = {}) => {
      mutateAsync(variables).then(
        (answer) => {
          try {
            callbacks.onSuccess?.(answer);
          } catch (error) {
            // Handing the answer on failed (the session refused it): the form shows an error and is usable
            // again, instead of staying busy on an unhandled rejection.
            const failure = asError(error);
            setState({ status: 'error', error: failure });
            callbacks.onError?.(failure);
          }
        },
        (error: unknown) => callbacks.onError?.(asError(error)),
      );
    },
    [mutateAsync],
  );
  const reset = useCallback(() => setState({ status: 'idle', error: null }), []);
  return {
    mutate,
    mutateAsync,
    reset,
    isPending: state.status === 'pending',
    isSuccess: state.status === 'success',
    error: state.error,
  };
}
