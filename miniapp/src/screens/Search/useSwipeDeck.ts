import { useCallback, useEffect, useRef, useState } from 'react';
import type { MatchedProfile } from '../../../../server/contract/discovery.ts';
import { ApiError } from '../../api/client.ts';
import { searchQueries, type Card } from '../../api/queries/search.ts';
import { settingsQueries } from '../../api/queries/settings.ts';
import { storedAgeRange, storedGender } from '../../lib/filters.ts';

export type DeckState =
  | { status: 'loading' }
  | { status: 'ready'; card: Card }
  | { status: 'empty' }
  | { status: 'no_profile' }
  | { status: 'error'; error: ApiError };

const asError = (error: unknown) => (error instanceof ApiError ? error : new ApiError(0, null, String(error)));

/**
 * The deck: the card on screen and the next one, already fetched (the spec's prefetch), so a swipe shows
 * the next person at once while the like or dislike travels in the background. The server never answers
 * a person the app holds (`exclude`), nor one just swiped.
 */
export function useSwipeDeck(onMatch: (profile: MatchedProfile) => void) {
  const [state, setState] = useState<DeckState>({ status: 'loading' });
  const [limitReached, setLimitReached] = useState<ApiError | null>(null);
  /** A like or dislike the server did not take (other than the like limit): said briefly, the deck goes on. */
  const [swipeFailure, setSwipeFailure] = useState<{ liked: boolean; error: ApiError } | null>(null);
  const next = useRef<Promise<Card | null | 'no_profile'> | null>(null);
  const current = useRef<Card | null>(null);
  const inFlight = useRef(new Set<number>());
  const filters = useRef({ ageRange: storedAgeRange(), gender: storedGender() });

  const fetchAfter = useCallback((held: number[]) => {
    const promise = searchQueries.next(filters.current, [...held, ...inFlight.current]);
    // A failed prefetch is retried when the card is needed, not reported twice.
    promise.catch(() => undefined);
    return promise;
  }, []);

  const show = useCallback(
    async (pending: Promise<Card | null | 'no_profile'>) => {
      try {
        const card = await pending;
        current.current = card && card !== 'no_profile' ? card : null;
        if (card === 'no_profile') setState({ status: 'no_profile' });
        else if (!card) setState({ status: 'empty' });
        else {
          setState({ status: 'ready', card });
          next.current = fetchAfter([card.profile_id]);
        }
      } catch (error) {
        setState({ status: 'error', error: asError(error) });
      }
    },
    [fetchAfter],
  );

  const reload = useCallback(() => {
    setState({ status: 'loading' });
    void show(fetchAfter([]));
  }, [show, fetchAfter]);

  useEffect(() => {
    // Search never stores the filter (a GET changes nothing); the explicit save does, once per page life.
    void settingsQueries.syncGender(filters.current.gender);
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the state changes when the fetch answers, not synchronously
    void show(fetchAfter([]));
  }, [show, fetchAfter]);

  const decide = useCallback(
    (liked: boolean) => {
      const card = current.current;
      if (!card) return;
      inFlight.current.add(card.profile_id);
      const pending = next.current ?? fetchAfter([]);
      next.current = null;
      // The next person at once if prefetched; a spinner only when the prefetch has not come back yet.
      void Promise.race([pending, Promise.resolve('pending' as const)]).then((settled) => {
        if (settled === 'pending') setState({ status: 'loading' });
      });
      void show(pending);
      (liked ? searchQueries.like(card.profile_id) : searchQueries.dislike(card.profile_id)).then(
        (result) => {
          inFlight.current.delete(card.profile_id);
          if (result.match) onMatch(result.profile);
        },
        (error: unknown) => {
          inFlight.current.delete(card.profile_id);
          const failure = asError(error);
          if (failure.code === 'like_limit') {
            // Out of free likes: the person comes back on screen, with the explanation.
            setLimitReached(failure);
            current.current = card;
            next.current = fetchAfter([card.profile_id]);
            setState({ status: 'ready', card });
          } else {
            setSwipeFailure({ liked, error: failure });
          }
        },
      );
    },
    [fetchAfter, show, onMatch],
  );

  const dismissSwipeFailure = useCallback(() => setSwipeFailure(null), []);
  return { state, decide, reload, limitReached, dismissLimit: () => setLimitReached(null), swipeFailure, dismissSwipeFailure };
}
