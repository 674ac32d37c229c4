import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAdminAction } from '../../api/queries/admin.ts';
import { ConfirmSheet } from '../../components/ConfirmSheet.tsx';
import { ErrorLine } from '../../components/States.tsx';
import { errorText } from '../../lib/errorText.ts';

export interface AdminActionButton {
  label: string;
  /** What the line under the buttons says once it is done. */
  doneText: string;
  path: string;
  body: object;
  /** A ban, a refund, a rejection, a removal: asked once more in a ConfirmSheet before it is sent. */
  danger?: boolean;
}

/**
 * A decision's buttons, with an optional reason (kept in the audit log), the outcome announced in a status
 * line and a refusal (another admin was first: `already_decided`) in an error line. The lists read again after.
 * A danger action is confirmed first: a stray tap must not ban someone or refund a payment.
 */
export function ActionBar({ actions, withReason = true }: { actions: AdminActionButton[]; withReason?: boolean }) {
  const { t } = useTranslation();
  const action = useAdminAction();
  const [reason, setReason] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<AdminActionButton | null>(null);
  const run = (a: AdminActionButton) => {
    setDone(null);
    action.mutate(
      {
        path: a.path,
        body: { ...a.body, ...(withReason && reason.trim() ? { reason: reason.trim() } : {}) },
      },
      { onSuccess: () => setDone(a.doneText), onSettled: () => setConfirming(null) },
    );
  };
  return (
    <div className="admin-actions">
      {withReason && (
        <input
          type="text"
          className="admin-reason"
          value={reason}
          maxLength={500}
          placeholder={t('app.admin.reasonPlaceholder')}
          aria-label={t('app.admin.reasonPlaceholder')}
          onChange={(event) => setReason(event.target.value)}
        />
      )}
      <div className="admin-buttons">
        {actions.map((a) => (
          <button
            key={a.label}
            type="button"
            className={a.danger ? 'button small danger' : 'button small secondary'}
            disabled={action.isPending}
            onClick={() => (a.danger ? setConfirming(a) : run(a))}
          >
            {a.label}
          </button>
        ))}
      </div>
      <p className="admin-done" role="status">
        {done ?? ''}
      </p>
      {action.isError && <ErrorLine message={errorText(t, action.error, 'app.admin.loadFailed')} />}
      <ConfirmSheet
        open={confirming !== null}
        title={confirming?.label ?? ''}
        text={t('app.admin.confirmText')}
        confirmLabel={confirming?.label ?? ''}
        busy={action.isPending}
        onConfirm={() => confirming && run(confirming)}
        onClose={() => setConfirming(null)}
      />
    </div>
  );
}
