import { Suspense, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { MatchedProfile } from '@contract/discovery.ts';
import type { Card } from '../../api/queries/search.ts';
import { DeckButtons } from '../../components/DeckButtons.tsx';
import { ChunkBoundary } from '../../components/ErrorBoundary.tsx';
import { retryingLazy } from '../../components/retryingLazy.ts';
import { ErrorState, Loading } from '../../components/States.tsx';
import { LeavingCard, SwipeCard } from '../../components/SwipeCard.tsx';
import { errorText } from '../../lib/errorText.ts';
import { announceMatch } from '../../lib/matchAnnouncements.ts';
import { releaseBootCard } from '../../lib/bootCard.ts';
import { actionGuardMs, leaveMs } from '../../lib/swipeRules.ts';
import { platform } from '../../platform/index.ts';
import { pageSettled } from '../../api/contractCheck.ts';
import { KeyHint, useDeckKeys, useUndoKeys } from './deckKeys.tsx';
import { useSwipeDeck } from './useSwipeDeck.ts';
import './Search.css';

/**
 * The parts the first card does not need, in a chunk of their own (deckExtras.ts, issue 41): fetched when
 * first shown, or once the page has settled, whichever comes first.
 */
const deckExtras = () => import('./deckExtras.ts');
const EmptyDeck = retryingLazy(() => deckExtras().then((m) => ({ default: m.EmptyDeck })));
const LikeLimitPanel = retryingLazy(() => deckExtras().then((m) => ({ default: m.LikeLimitPanel })));
const LikeMessageSheet = retryingLazy(() => deckExtras().then((m) => ({ default: m.LikeMessageSheet })));

/** True once the page has loaded and settled (api/contractCheck.ts): the deck's extras are fetched then. */
function useSettled(): boolean {
  const [settled, setSettled] = useState(false);
  useEffect(() => {
    let live = true;
    void pageSettled()
      .then(deckExtras)
      .then(
        () => live && setSettled(true),
        () => undefined,
      );
    return () => {
      live = false;
    };
  }, []);
  return settled;
}

/** How long a failed like or dislike is said before the message goes. */
const swipeFailureMs = 4000;

/** The deck's card knows the gender ("Write to her"); the overlay is the app's (components/LiveShell.tsx). */
function announceMatchFromCard(profile: MatchedProfile, gender: string): void {
  announceMatch(profile, { gender });
}

/**
 * `/search` (spec sections 2, 9): the swipe deck filling the screen, its buttons over the card, the keys on
 * a wide screen, the match overlay, the like limit, and a way on when nobody is left.
 */
export default function SearchScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const deck = useSwipeDeck(announceMatchFromCard);
  const lastAction = useRef(Number.NEGATIVE_INFINITY);
  /** The photo the card on screen shows, so the card flying off shows it too. */
  const [photoAt, setPhotoAt] = useState<{ id: number; index: number } | null>(null);
  const [leaving, setLeaving] = useState<{
    card: Card;
    liked: boolean;
    fromPx: number;
    photoIndex: number;
    at: number;
  } | null>(null);
  useEffect(() => {
    if (!leaving) return;
    const timer = setTimeout(() => setLeaving(null), leaveMs);
    return () => clearTimeout(timer);
  }, [leaving]);

  useEffect(() => {
    if (deck.state.status === 'no_profile') void navigate('/CreateProfile', { replace: true });
  }, [deck.state.status, navigate]);

  const { swipeFailure, dismissSwipeFailure, undoFailure, dismissUndoFailure } = deck;
  useEffect(() => {
    if (!swipeFailure) return;
    const timer = setTimeout(dismissSwipeFailure, swipeFailureMs);
    return () => clearTimeout(timer);
  }, [swipeFailure, dismissSwipeFailure]);
  useEffect(() => {
    if (!undoFailure) return;
    const timer = setTimeout(dismissUndoFailure, swipeFailureMs);
    return () => clearTimeout(timer);
  }, [undoFailure, dismissUndoFailure]);
  /** The like-with-a-message sheet, open for this person (the card on screen when it opened). */
  const [writingTo, setWritingTo] = useState<number | null>(null);
  const settled = useSettled();

  // One decision per 500 ms, whether by swipe or button (spec section 9). The like limit's panel stops
  // them all (the deck says so: nothing flies off, nothing is sent).
  const decide = (liked: boolean, fromPx = 0, message?: string) => {
    const now = performance.now();
    if (now - lastAction.current < actionGuardMs) return;
    const shown = deck.state.status === 'ready' ? deck.state.card : null;
    if (!deck.decide(liked, message)) return;
    lastAction.current = now;
    platform().haptic(liked ? 'like' : 'dislike');
    if (shown)
      setLeaving({
        card: shown,
        liked,
        fromPx,
        photoIndex: photoAt?.id === shown.profile_id ? photoAt.index : 0,
        at: now,
      });
  };

  const { state } = deck;
  // The photo boot.js painted over the deck's box while the app loaded (lib/bootCard.ts) gives way, in the
  // same frame, to the deck's first state: the same card drawn by the app, the empty deck or an error.
  const drawn = state.status !== 'loading';
  useLayoutEffect(() => {
    if (drawn) releaseBootCard();
  }, [drawn]);
  useLayoutEffect(() => releaseBootCard, []);
  // The details of the card on screen: open for that person only, so the next card starts closed.
  const [expandedFor, setExpandedFor] = useState<number | null>(null);
  const shownId = state.status === 'ready' ? state.card.profile_id : null;
  const expanded = shownId !== null && expandedFor === shownId;
  const limited = deck.limitReached !== null;
  useDeckKeys(state.status === 'ready' && !limited, {
    decide,
    details: () => setExpandedFor(expanded ? null : shownId),
  });
  /** The card changes under the user: the next decision need not wait out the guard of the one undone. */
  const undo = () => {
    lastAction.current = Number.NEGATIVE_INFINITY;
    void deck.undo();
  };
  useUndoKeys(deck.canUndo, undo);
  const partFailed = (retry: () => void) => <ErrorState message={t('app.errors.partFailed')} onRetry={retry} />;
  const writing = writingTo !== null && writingTo === shownId && state.status === 'ready' ? state.card : null;
  // Once opened, the sheet stays mounted: closed before the page settles, unmounting it would take its open
  // <dialog> away (the focus lost to the page, the words typed lost with it).
  const [sheetOpened, setSheetOpened] = useState(false);
  if (writing !== null && !sheetOpened) setSheetOpened(true);
  return (
    <section className="search-screen" aria-label={t('app.search.title')}>
      <div className="deck">
        {state.status === 'loading' && <Loading />}
        {state.status === 'error' && (
          <ErrorState message={errorText(t, state.error, 'app.search.failed')} onRetry={deck.reload} />
        )}
        {state.status === 'empty' && (
          <ChunkBoundary fallback={partFailed}>
            <Suspense fallback={<Loading />}>
              <EmptyDeck filters={deck.filters} onChange={deck.changeFilters} onRefresh={deck.reload} />
            </Suspense>
          </ChunkBoundary>
        )}
        {state.status === 'ready' && (
          <SwipeCard
            key={state.card.profile_id}
            card={state.card}
            onDecide={decide}
            expanded={expanded}
            onExpand={(open) => setExpandedFor(open ? state.card.profile_id : null)}
            photoIndex={photoAt?.id === state.card.profile_id ? photoAt.index : 0}
            onPhotoIndex={(index) => setPhotoAt({ id: state.card.profile_id, index })}
          />
        )}
        {leaving && (
          <LeavingCard
            key={leaving.at}
            card={leaving.card}
            liked={leaving.liked}
            fromPx={leaving.fromPx}
            photoIndex={leaving.photoIndex}
          />
        )}
        {/* Over the deck, not under it: a message coming and going must not move the buttons. */}
        {swipeFailure && (
          <p className="deck-toast" role="alert">
            {swipeFailure.liked
              ? errorText(t, swipeFailure.error, 'app.errors.likeFailed', 'app.errors.likeError')
              : errorText(t, swipeFailure.error, 'app.errors.dislikeFailed', 'app.errors.dislikeError')}
          </p>
        )}
        {undoFailure !== null && !swipeFailure && (
          <p className="deck-toast" role="alert">
            {errorText(t, undoFailure, 'app.errors.undoFailed')}
          </p>
        )}
        {/* Over the card's lower edge; only while there is a card to decide on (the empty deck has its own offers). */}
        {(state.status === 'ready' || state.status === 'loading') && (
          <DeckButtons
            overlay
            onDecide={decide}
            disabled={state.status !== 'ready' || limited}
            onUndo={undo}
            undoDisabled={!deck.canUndo}
            onWrite={() => setWritingTo(shownId)}
          />
        )}
        {/* The empty deck may still bring the last person back. */}
        {state.status === 'empty' && deck.canUndo && (
          <button type="button" className="button secondary deck-undo" onClick={undo}>
            {t('app.search.undo')}
          </button>
        )}
      </div>
      <KeyHint />
      {deck.limitReached && (
        // Its chunk not loaded: the deck says so, with Retry, rather than being stopped with no word why.
        <ChunkBoundary fallback={partFailed}>
          <Suspense fallback={null}>
            <LikeLimitPanel limit={deck.limitReached} onClose={deck.dismissLimit} />
          </Suspense>
        </ChunkBoundary>
      )}
      {/* Its chunk not loaded: nothing opens, and the next opening loads it again. */}
      <ChunkBoundary resetKey={writing?.profile_id ?? null}>
        <Suspense fallback={null}>
          {/* Kept mounted once here (it keeps the words while closed for the same person). */}
          {(settled || sheetOpened) && (
            <LikeMessageSheet
              open={writing !== null}
              name={writing?.name ?? ''}
              onClose={() => setWritingTo(null)}
              onSend={(message) => {
                setWritingTo(null);
                decide(true, 0, message);
              }}
            />
          )}
        </Suspense>
      </ChunkBoundary>
    </section>
  );
}
