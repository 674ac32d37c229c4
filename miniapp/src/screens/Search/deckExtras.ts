/**
 * What the deck's first card does not need (issue 41), in one chunk of its own: the like-with-a-message
 * sheet, the like limit's panel, the empty deck and the match overlay (components/LiveShell.tsx). Fetched
 * when one is first shown, or once the page has settled (SearchScreen.tsx), so a later tap finds it here.
 * With the query cache (TanStack Query), which the like sheet reads the subscription through.
 */
import { withQueries } from '../../api/QueryScope.tsx';
import { LikeMessageSheet as Sheet } from './LikeMessageSheet.tsx';

export { EmptyDeck } from './EmptyDeck.tsx';
export { LikeLimitPanel } from './LikeLimitPanel.tsx';

/** The sheet reads the subscription through the query cache, which comes with this chunk (issue 41). */
export const LikeMessageSheet = withQueries(Sheet);
export { default as MatchOverlay } from '../../components/MatchOverlay.tsx';
