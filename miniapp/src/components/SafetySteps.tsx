import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { reportReasons } from '@contract/discovery.ts';
import type { ReportReason } from '../api/queries/safety.ts';
import { genderContext } from '@locales/genderContext.ts';

/** The safety sheet's first step (SafetyActions): report or block. */
export function ChooseAction({
  onReport,
  onBlock,
  onUnmatch,
  children,
}: {
  onReport: () => void;
  onBlock: () => void;
  onUnmatch?: (() => void) | undefined;
  /** Entries of the caller's own before these (Share my Telegram in a chat). */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="sheet-actions">
      {children}
      {onUnmatch && (
        <button type="button" className="button secondary block" onClick={onUnmatch}>
          {t('app.matches.unmatch')}
        </button>
      )}
      <button type="button" className="button secondary block" onClick={onReport}>
        {t('app.safety.report')}
      </button>
      <button type="button" className="button secondary block danger" onClick={onBlock}>
        {t('app.safety.block')}
      </button>
    </div>
  );
}

/** Blocking, confirmed: what it does, and the button that does it. */
export function ConfirmBlock({ name, busy, onBlock }: { name: string; busy: boolean; onBlock: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="sheet-actions">
      <p>{t('app.safety.blockText', { name })}</p>
      <button type="button" className="button block danger" disabled={busy} onClick={onBlock}>
        {busy ? t('app.common.wait') : t('app.safety.blockConfirm')}
      </button>
    </div>
  );
}

/**
 * The report step of the safety sheet (SafetyActions): a reason, an optional comment, and the reminder that
 * a report blocks too. The choices live in SafetyActions, so closing the sheet and coming back keeps them.
 */
export function ReportForm({
  name,
  gender,
  reason,
  onReason,
  comment,
  onComment,
  busy,
  onSend,
}: {
  name: string;
  gender: string | null;
  reason: ReportReason | null;
  onReason: (reason: ReportReason) => void;
  comment: string;
  onComment: (comment: string) => void;
  busy: boolean;
  onSend: (reason: ReportReason) => void;
}) {
  const { t } = useTranslation();
  return (
    <form
      className="sheet-actions"
      onSubmit={(event) => {
        event.preventDefault();
        if (reason) onSend(reason);
      }}
    >
      <fieldset className="reasons">
        <legend>{t('app.safety.reason')}</legend>
        {reportReasons.map((r) => (
          <label key={r} className="check">
            <input type="radio" name="reason" value={r} checked={reason === r} onChange={() => onReason(r)} />
            <span>{t(`app.safety.reasons.${r}`)}</span>
          </label>
        ))}
      </fieldset>
      <label className="field">
        <span>{t('app.safety.comment')}</span>
        <textarea rows={3} maxLength={1000} value={comment} onChange={(e) => onComment(e.target.value)} />
      </label>
      <p className="hint">{t('app.safety.reportAlsoBlocks', { name, context: genderContext(gender) })}</p>
      <button type="submit" className="button block danger" disabled={!reason || busy}>
        {busy ? t('app.common.wait') : t('app.safety.send')}
      </button>
    </form>
  );
}
