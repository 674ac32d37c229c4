import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { reportReasons } from '@contract/discovery.ts';
import { useSafetyAction, type ReportReason, type SafetyAction } from '../api/queries/safety.ts';
import { errorText } from '../lib/errorText.ts';
import { genderContext } from '@locales/genderContext.ts';
import { BottomSheet } from './BottomSheet.tsx';

type Step = 'closed' | 'menu' | 'block' | 'report';

/**
 * Block or report someone, from their profile or a chat. A report asks for a reason and an optional
 * comment, and blocks as well. When it is done the caller leaves the screen (`onDone`): that person is
 * gone from every list.
 */
export function SafetyActions({
  profileId,
  name,
  gender,
  onDone,
  children,
}: {
  profileId: number;
  name: string;
  /** The person's gender: what is said of them agrees with it ("будет заблокирована"); neutral when unknown. */
  gender: string | null;
  onDone: () => void;
  /** More entries at the top of the menu, from the screen that opens it (the chat's "Share my Telegram"). */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const [step, setStep] = useState<Step>('closed');
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [comment, setComment] = useState('');
  const safety = useSafetyAction(profileId);
  const busy = safety.isPending;
  const error = safety.error ? errorText(t, safety.error, 'app.safety.failed') : null;

  // A block or report under way is never reset: that would detach it, and its success (leaving the
  // screen) would never run. Its outcome waits for the sheet, closed meanwhile, to open again.
  const forgetOutcome = () => {
    if (!busy) safety.reset();
  };
  const close = () => {
    setStep('closed');
    forgetOutcome();
  };
  const openMenu = () => {
    forgetOutcome();
    setStep('menu');
  };

  function run(action: SafetyAction) {
    safety.mutate(action, {
      onSuccess: () => {
        setStep('closed');
        onDone();
      },
    });
  }

  return (
    <>
      <button type="button" className="safety-button" onClick={openMenu} aria-label={t('app.safety.open', { name })}>
        <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
          <circle cx="5" cy="12" r="2" fill="currentColor" />
          <circle cx="12" cy="12" r="2" fill="currentColor" />
          <circle cx="19" cy="12" r="2" fill="currentColor" />
        </svg>
      </button>
      <BottomSheet
        open={step !== 'closed'}
        title={step === 'report' ? t('app.safety.reportTitle', { name }) : step === 'block' ? t('app.safety.blockTitle', { name }) : t('app.safety.title')}
        onClose={close}
      >
        {step === 'menu' && (
          <div className="sheet-actions">
            {children}
            <button type="button" className="button secondary block" onClick={() => setStep('report')}>
              {t('app.safety.report')}
            </button>
            <button type="button" className="button secondary block danger" onClick={() => setStep('block')}>
              {t('app.safety.block')}
            </button>
          </div>
        )}
        {step === 'block' && (
          <div className="sheet-actions">
            <p>{t('app.safety.blockText', { name })}</p>
            <button type="button" className="button block danger" disabled={busy} onClick={() => run({ kind: 'block' })}>
              {busy ? t('app.common.wait') : t('app.safety.blockConfirm')}
            </button>
          </div>
        )}
        {step === 'report' && (
          <form
            className="sheet-actions"
            onSubmit={(event) => {
              event.preventDefault();
              if (reason) run({ kind: 'report', reason, comment });
            }}
          >
            <fieldset className="reasons">
              <legend>{t('app.safety.reason')}</legend>
              {reportReasons.map((r) => (
                <label key={r} className="check">
                  <input type="radio" name="reason" value={r} checked={reason === r} onChange={() => setReason(r)} />
                  <span>{t(`app.safety.reasons.${r}`)}</span>
                </label>
              ))}
            </fieldset>
            <label className="field">
              <span>{t('app.safety.comment')}</span>
              <textarea rows={3} maxLength={1000} value={comment} onChange={(e) => setComment(e.target.value)} />
            </label>
            <p className="hint">{t('app.safety.reportAlsoBlocks', { name, context: genderContext(gender) })}</p>
            <button type="submit" className="button block danger" disabled={!reason || busy}>
              {busy ? t('app.common.wait') : t('app.safety.send')}
            </button>
          </form>
        )}
        {error && (
          <p className="error-line" role="alert">
            {error}
          </p>
        )}
      </BottomSheet>
    </>
  );
}
