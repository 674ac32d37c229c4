import { useLayoutEffect, useRef, type RefObject } from 'react';

/**
 * A `<dialog>` shown modal for as long as the component is mounted (it comes over whatever the user was
 * doing): the screen behind is inert, so Tab stays in it and Escape closes it; `focus` gets the focus, and
 * when it goes the focus goes back where it was (a half-typed message, say).
 */
export function useModalDialog<F extends HTMLElement>(): {
  dialog: RefObject<HTMLDialogElement | null>;
  focus: RefObject<F | null>;
} {
  const dialog = useRef<HTMLDialogElement>(null);
  const focus = useRef<F>(null);
  useLayoutEffect(() => {
    const el = dialog.current;
    const before = document.activeElement;
    el?.showModal();
    focus.current?.focus();
    return () => {
      if (el?.open) el.close();
      if (before instanceof HTMLElement && before.isConnected) before.focus();
    };
  }, []);
  return { dialog, focus };
}
