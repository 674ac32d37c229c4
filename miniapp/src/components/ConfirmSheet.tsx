import { useTranslation } from 'react-i18next';
import { BottomSheet } from './BottomSheet.tsx';

/** A destructive step asked once more: the consequence in words, a danger button and Cancel. */
export function ConfirmSheet({
  open,
  title,
  text,
  confirmLabel,
  busy,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  text: string;
  confirmLabel: string;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <BottomSheet open={open} title={title} onClose={onClose}>
      <div className="sheet-actions">
        <p>{text}</p>
        <button type="button" className="button block danger" disabled={busy} onClick={onConfirm}>
          {busy ? t('app.common.wait') : confirmLabel}
        </button>
        <button type="button" className="button secondary block" onClick={onClose}>
          {t('app.matches.cancel')}
        </button>
      </div>
    </BottomSheet>
  );
}
