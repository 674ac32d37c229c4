/** Spec section 9: the indicator shows after 15 px, a swipe acts past 50 px, one action per 500 ms. */
export const indicatorPx = 15;
export const actPx = 50;
export const actionGuardMs = 500;
/** How long a decided card takes to fly off (spec section 9: swipes act after 300 ms). */
export const leaveMs = 300;

export type Verdict = 'like' | 'dislike' | 'expand' | 'collapse' | 'nextPhoto' | 'previousPhoto' | null;

/**
 * What a released drag means. Horizontal wins over vertical when both are large. On an expanded card
 * (bio open) left and right change the photo instead of deciding.
 */
export function verdictOf(dx: number, dy: number, expanded: boolean): Verdict {
  if (Math.abs(dx) >= Math.abs(dy)) {
    if (expanded) return dx > actPx ? 'previousPhoto' : dx < -actPx ? 'nextPhoto' : null;
    if (dx > actPx) return 'like';
    if (dx < -actPx) return 'dislike';
    return null;
  }
  if (dy < -actPx && !expanded) return 'expand';
  if (dy > actPx && expanded) return 'collapse';
  return null;
}

export function indicatorOf(dx: number): 'like' | 'dislike' | null {
  if (dx > indicatorPx) return 'like';
  if (dx < -indicatorPx) return 'dislike';
  return null;
}
