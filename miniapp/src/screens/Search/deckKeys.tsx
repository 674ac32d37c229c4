import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

/** Someone typing or a dialog (a sheet, the match overlay) over the deck: the arrows are theirs. */
function keysBelongElsewhere(event: KeyboardEvent): boolean {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return true;
  const target = event.target;
  if (
    target instanceof HTMLElement &&
    (target.isContentEditable || target.closest('input, textarea, select, [contenteditable]'))
  )
    return true;
  return document.querySelector('dialog[open]') !== null;
}

const keyActions = { ArrowLeft: true, ArrowRight: true, ArrowUp: true } as const;

/** ⌘Z (Ctrl+Z off a Mac) or Backspace alone: take the last swipe back. */
function isUndoKey(event: KeyboardEvent): boolean {
  if (event.altKey || event.shiftKey) return false;
  if (event.key === 'Backspace') return !event.metaKey && !event.ctrlKey;
  return (event.key === 'z' || event.key === 'Z') && (event.metaKey || event.ctrlKey);
}

/** Someone typing or a dialog over the deck: Backspace and ⌘Z are theirs (the modifiers are the undo's own). */
function undoBelongsElsewhere(event: KeyboardEvent): boolean {
  const target = event.target;
  if (
    target instanceof HTMLElement &&
    (target.isContentEditable || target.closest('input, textarea, select, [contenteditable]'))
  )
    return true;
  return document.querySelector('dialog[open]') !== null;
}

/**
 * The undo keys, apart from the deck's arrows: they work on the empty deck too (the last person may be
 * brought back to it), whenever `active`.
 */
export function useUndoKeys(active: boolean, undo: () => void) {
  const latest = useRef(undo);
  useEffect(() => {
    latest.current = undo;
  });
  useEffect(() => {
    if (!active) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || !isUndoKey(event) || undoBelongsElsewhere(event)) return;
      event.preventDefault();
      if (!event.repeat) latest.current();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [active]);
}

/**
 * The deck's keys on a computer: ← dislike, → like, ↑ the details. Read through a ref, so the listener
 * is added once and always calls the screen's newest handlers.
 */
export function useDeckKeys(active: boolean, actions: { decide: (liked: boolean) => void; details: () => void }) {
  const latest = useRef(actions);
  useEffect(() => {
    latest.current = actions;
  });
  useEffect(() => {
    if (!active) return;
    const onKey = (event: KeyboardEvent) => {
      // A held key repeats every few dozen ms: one press, one decision (the 500 ms guard alone would let a
      // held → like someone new twice a second).
      if (event.defaultPrevented || keysBelongElsewhere(event)) return;
      if (event.repeat) {
        if (event.key in keyActions) event.preventDefault();
        return;
      }
      const act = {
        ArrowLeft: () => latest.current.decide(false),
        ArrowRight: () => latest.current.decide(true),
        ArrowUp: () => latest.current.details(),
      }[event.key];
      if (!act) return;
      event.preventDefault();
      act();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [active]);
}

/** The keys, said under the deck where there is room for it (CSS shows it on wide screens only). */
export function KeyHint() {
  const { t } = useTranslation();
  return (
    <p className="deck-keys muted" aria-hidden="true">
      <span>
        <kbd>←</kbd> {t('app.search.keyDislike')}
      </span>
      <span>
        <kbd>→</kbd> {t('app.search.keyLike')}
      </span>
      <span>
        <kbd>↑</kbd> {t('app.search.keyDetails')}
      </span>
      <span>
        <kbd>⌫</kbd> {t('app.search.keyUndo')}
      </span>
    </p>
  );
}
