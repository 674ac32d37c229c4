import { useCallback, useEffect, useRef, useState } from 'react';
import type { MatchedProfile } from '@contract/discovery.ts';
import { ApiError } from '../../api/client.ts';
import { changeDeckFilters, syncGender } from '../../api/queries/deckSettings.ts';
import { fetchDeckCard, type Card } from '../../api/queries/search.ts';
import { swipe, undoSwipe } from '../../api/queries/swipes.ts';
import { currentFilters, useDeckFilters, type FilterChange } from '../../lib/filters.ts';

export type DeckState =
  | { status: 'loading' }
  | { status: 'ready'; card: Card }
  | { status: 'empty' }
  | { status: 'no_profile' }
  /** `Error`: also a bug on the way, not only the server's refusal. */
  | { status: 'error'; error: unknown };

type Pending = Promise<Card | null | 'no_profile'>;

export interface LikeLimit {
  error: ApiError;
  /** When the next like is back, on this device's clock (`Date.now()`); null when the server did not say. */
  backAt: number | null;
}

/** How many decided cards the deck remembers, so an undo can show the person again without a search. */
const historySize = 10;

/** Refusals after which the card comes back on screen: the like was not made, and may be made otherwise. */
const cardComesBack = new Set(['like_message_limit', 'already_liked']);

/**
 * The deck: the card on screen and the next one, already fetched (the spec's prefetch), so a swipe shows
 * the next person at once while the like or dislike travels in the background. The server never answers
 * a person the app holds (`exclude`), nor one just swiped.
 *
 * Not a query hook: each `GET /api/search` is counted against the search limit and answers someone else,
 * so nothing may fetch it on its own (mounting, refocusing, retrying) or show a cached answer again, and
 * the next card must be requested the moment the current one shows, not when a component asks for it.
 * The deck therefore holds its two cards itself and fetches imperatively (`fetchDeckCard`). Nothing here
 * needs the query cache (issue 41: the first card comes before TanStack Query): likes and dislikes are
 * the call the likers' screens make (api/queries/swipes.ts), so the matches and likers in the cache
 * follow once there is one.
 */
export function useSwipeDeck(onMatch: (profile: MatchedProfile, gender: string) => void) {
  /** Cards decided on this screen, newest last, with their swipe's request (an undo waits for it). */
  const history = useRef<{ card: Card; sent: Promise<unknown> }[]>([]);
  const [canUndo, setCanUndo] = useState(false);
  const [undoing, setUndoing] = useState(false);
  /** An undo the server refused (nothing to undo, too old, a match, the daily limit): said briefly. */
  const [undoFailure, setUndoFailure] = useState<unknown>(null);
  const [state, setState] = useState<DeckState>({ status: 'loading' });
  /**
   * The free like limit, once the server said so: its refusal, and when the next like is back (the
   * refusal's Retry-After from when it came; null when the answer did not say). Kept after the panel is
   * closed, so a like before that time opens the panel again instead of asking the server to refuse it.
   */
  const [limit, setLimit] = useState<LikeLimit | null>(null);
  /** The limit's panel is on screen: no decision goes out while it is (keys, buttons, swipes). */
  const [limitOpen, setLimitOpen] = useState(false);
  /** A like or dislike the server did not take (other than the like limit): said briefly, the deck goes on. */
  const [swipeFailure, setSwipeFailure] = useState<{ liked: boolean; error: unknown } | null>(null);
  const next = useRef<Pending | null>(null);
  const current = useRef<Card | null>(null);
  const inFlight = useRef(new Set<number>());
  /** The filters for the screen to show (the empty deck's offers); each fetch reads the ones in force. */
  const filters = useDeckFilters();

  const fetchAfter = useCallback((held: number[]) => {
    const promise = fetchDeckCard(currentFilters(), [...held, ...inFlight.current]);
    // A failed prefetch is retried when the card is needed, not reported twice.
    promise.catch(() => undefined);
    return promise;
  }, []);

  const show = useCallback(
    async (pending: Pending) => {
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
        setState({ status: 'error', error });
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
    void syncGender(currentFilters().gender);
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the state changes when the fetch answers, not synchronously
    void show(fetchAfter([]));
  }, [show, fetchAfter]);

  /**
   * True when the decision was taken (sent); false when the like limit stopped it (its panel is shown).
   * `message`: a like's words to the person (the like-with-a-message sheet).
   */
  const decide = useCallback(
    (liked: boolean, message?: string): boolean => {
      if (limitOpen) return false;
      if (liked && limit && limit.backAt !== null && Date.now() < limit.backAt) {
        setLimitOpen(true);
        return false;
      }
      const card = current.current;
      if (!card) return false;
      inFlight.current.add(card.profile_id);
      const pending = next.current ?? fetchAfter([]);
      next.current = null;
      // The next person at once if prefetched; a spinner only when the prefetch has not come back yet.
      void Promise.race([pending, Promise.resolve('pending' as const)]).then((settled) => {
        if (settled === 'pending') setState({ status: 'loading' });
      });
      void show(pending);
      const sent = swipe({ profileId: card.profile_id, liked, ...(message ? { message } : {}) });
      history.current = [...history.current.filter((h) => h.card.profile_id !== card.profile_id), { card, sent }].slice(
        -historySize,
      );
      setCanUndo(true);
      sent.then(
        (result) => {
          inFlight.current.delete(card.profile_id);
          if (result.match) onMatch(result.profile, card.gender);
        },
        (error: unknown) => {
          inFlight.current.delete(card.profile_id);
          // Not made: nothing to take back.
          history.current = history.current.filter((h) => h.sent !== sent);
          setCanUndo(history.current.length > 0);
          if (error instanceof ApiError && error.code !== null && cardComesBack.has(error.code)) {
            // The card comes back (the like was not made), with what went wrong.
            setSwipeFailure({ liked, error });
            current.current = card;
            next.current = fetchAfter([card.profile_id]);
            setState({ status: 'ready', card });
          } else if (error instanceof ApiError && error.code === 'like_limit') {
            // Out of free likes: the person comes back on screen, with the explanation and the time.
            setLimit({
              error,
              backAt: error.retryAfterSeconds === undefined ? null : Date.now() + error.retryAfterSeconds * 1000,
            });
            setLimitOpen(true);
            current.current = card;
            next.current = fetchAfter([card.profile_id]);
            setState({ status: 'ready', card });
          } else {
            setSwipeFailure({ liked, error });
          }
        },
      );
      return true;
    },
    [fetchAfter, show, onMatch, limit, limitOpen],
  );

  // The next like is back: the limit is forgotten (a like goes out again) and its panel goes.
  useEffect(() => {
    if (!limit || limit.backAt === null) return;
    const timer = setTimeout(
      () => {
        setLimit(null);
        setLimitOpen(false);
      },
      Math.max(0, limit.backAt - Date.now()),
    );
    return () => clearTimeout(timer);
  }, [limit]);

  /** The empty deck's own way out: other filters, kept as the menu keeps them, and the deck starts over. */
  const changeFilters = useCallback(
    (change: FilterChange) => {
      // Only someone with a profile reaches a deck (no profile: /CreateProfile), so the gender is saved too.
      changeDeckFilters(change, true);
      next.current = null;
      reload();
    },
    [reload],
  );

  /**
   * Takes back the last swipe (the server decides which is last: ten minutes at most, no match made, free
   * users once a day) once its request has been answered, and shows that person again, the card on screen
   * coming next. A person not decided on this screen (another tab) is found by starting the deck over.
   */
  const undo = useCallback(async () => {
    if (undoing) return;
    setUndoing(true);
    setUndoFailure(null);
    try {
      await Promise.allSettled(history.current.map((h) => h.sent));
      const { profile_id } = await undoSwipe();
      const back = history.current.find((h) => h.card.profile_id === profile_id);
      history.current = history.current.filter((h) => h.card.profile_id !== profile_id);
      setCanUndo(history.current.length > 0);
      if (!back) {
        next.current = null;
        reload();
        return;
      }
      const shown = current.current;
      current.current = back.card;
      // The card on screen comes next; the prefetched one is asked for again after it.
      next.current = shown ? Promise.resolve(shown) : fetchAfter([back.card.profile_id]);
      setState({ status: 'ready', card: back.card });
    } catch (error) {
      setUndoFailure(error);
      // Whatever it was, nothing on this screen is worth another try but a newer swipe.
      if (
        error instanceof ApiError &&
        error.code !== null &&
        ['nothing_to_undo', 'undo_too_old', 'undo_match'].includes(error.code)
      ) {
        history.current = [];
        setCanUndo(false);
      }
    } finally {
      setUndoing(false);
    }
  }, [undoing, reload, fetchAfter]);

  const dismissSwipeFailure = useCallback(() => setSwipeFailure(null), []);
  const dismissUndoFailure = useCallback(() => setUndoFailure(null), []);
  return {
    state,
    filters,
    changeFilters,
    decide,
    reload,
    /** The like limit's panel, while it is open. */
    limitReached: limitOpen ? limit : null,
    dismissLimit: () => setLimitOpen(false),
    swipeFailure,
    dismissSwipeFailure,
    undo,
    /** A swipe of this screen may be taken back (the server has the last word), and none is being. */
    canUndo: canUndo && !undoing,
    undoFailure,
    dismissUndoFailure,
  };
}
