import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import './BottomSheet.css';

/**
 * A sheet from the bottom of the screen on the native <dialog>: modal, focus kept inside, Escape and a
 * tap outside close it, focus returns to what opened it.
 */
export function BottomSheet({
  open,
  title,
  onClose,
  children,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const el = dialog.current;
    if (!el) return;
    if (open && !el.open) el.showModal();
    if (!open && el.open) el.close();
  }, [open]);
  return (
    <dialog
      ref={dialog}
      className="sheet"
      aria-label={title}
      onClose={onClose}
      onClick={(event) => {
        // A click on the backdrop lands on the dialog element itself.
        if (event.target === dialog.current) onClose();
      }}
    >
      <div className="sheet-body">
        <div className="sheet-head">
          <h2>{title}</h2>
          <button type="button" className="sheet-close" onClick={onClose} aria-label={t('app.common.close')}>
            ×
          </button>
        </div>
        {children}
      </div>
    </dialog>
  );
}
