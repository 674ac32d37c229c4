/**
 * The first card's photo that public/boot.js paints in the deck's box before the app has run (issue 41:
 * on a phone the photo used to show about a second after it had arrived, once the app's code had run).
 * The app takes it away as it draws the deck's first state (its card, the empty deck, an error) or any
 * other screen; from then on boot.js paints none, should the card's answer come later.
 */
export function releaseBootCard(): void {
  const early = window.__iskraEarly;
  if (early) early.released = true;
  document.getElementById('boot-card')?.remove();
}
