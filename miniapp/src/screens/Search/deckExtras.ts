/**
 * What the deck's first card does not need (issue 41), in one chunk of its own: the like-with-a-message
 * sheet, the like limit's panel, the empty deck and the match overlay (components/LiveShell.tsx). Fetched
 * when one is first shown, or once the page has settled (SearchScreen.tsx), so a later tap finds it here.
 */
export { EmptyDeck } from './EmptyDeck.tsx';
export { LikeLimitPanel } from './LikeLimitPanel.tsx';
export { LikeMessageSheet } from './LikeMessageSheet.tsx';
export { default as MatchOverlay } from '../../components/MatchOverlay.tsx';
