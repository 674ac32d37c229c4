import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useUnmatch } from '../api/queries/matches.ts';
import { useSafetyAction, type ReportReason, type SafetyAction } from '../api/queries/safety.ts';
import { errorText } from '../lib/errorText.ts';
import { BottomSheet } from './BottomSheet.tsx';
import { ConfirmSheet } from './ConfirmSheet.tsx';
import { ChooseAction, ConfirmBlock, ReportForm } from './SafetySteps.tsx';
import './SafetyActions.css';

type Step = 'closed' | 'menu' | 'block' | 'report' | 'unmatch';

/**
 * Block or report someone, from their profile or a chat; and, with `withUnmatch` (a match's chat), unmatch,
 * asked once more as on their profile. A report asks for a reason and an optional comment, and blocks as
 * well. When it is done the caller leaves the screen (`onDone`): that person is gone from every list.
 */
export function SafetyActions({
  profileId,
  name,
  gender,
  withUnmatch = false,
  onDone,
  children,
}: {
  profileId: number;
  name: string;
  /** The person's gender: what is said of them agrees with it ("будет заблокирована"); neutral when unknown. */
  gender: string | null;
  /** Offer "Unmatch" beside report and block (they are a match). */
  withUnmatch?: boolean;
  onDone: () => void;
  /** More entries at the top of the menu, from the screen that opens it (the chat's "Share my Telegram"). */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const [step, setStep] = useState<Step>('closed');
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [comment, setComment] = useState('');
  const safety = useSafetyAction(profileId);
  const unmatch = useUnmatch();
  const busy = safety.isPending || unmatch.isPending;
  const error = safety.error
    ? errorText(t, safety.error, 'app.safety.failed')
    : unmatch.error
      ? errorText(t, unmatch.error, 'app.errors.unmatchFailed', 'app.errors.unmatchError')
      : null;

  // A block, report or unmatch under way is never reset: that would detach it, and its success (leaving
  // the screen) would never run. Its outcome waits for the sheet, closed meanwhile, to open again.
  const forgetOutcome = () => {
    if (busy) return;
    safety.reset();
    unmatch.reset();
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
        open={step !== 'closed' && step !== 'unmatch'}
        title={
          step === 'report'
            ? t('app.safety.reportTitle', { name })
            : step === 'block'
              ? t('app.safety.blockTitle', { name })
              : t('app.safety.title')
        }
        // The menu closing to make way for the unmatch question is not the person closing it.
        onClose={() => {
          if (step !== 'unmatch') close();
        }}
      >
        {step === 'menu' && (
          <ChooseAction
            onReport={() => setStep('report')}
            onBlock={() => setStep('block')}
            onUnmatch={withUnmatch ? () => setStep('unmatch') : undefined}
          >
            {children}
          </ChooseAction>
        )}
        {step === 'block' && <ConfirmBlock name={name} busy={busy} onBlock={() => run({ kind: 'block' })} />}
        {step === 'report' && (
          <ReportForm
            name={name}
            gender={gender}
            reason={reason}
            onReason={setReason}
            comment={comment}
            onComment={setComment}
            busy={busy}
            onSend={(chosen) => run({ kind: 'report', reason: chosen, comment })}
          />
        )}
        {error && (
          <p className="error-line" role="alert">
            {error}
          </p>
        )}
      </BottomSheet>
      {/* The same question as on their profile (MatchProfileScreen); a failure is told in the menu. */}
      <ConfirmSheet
        open={step === 'unmatch'}
        title={t('app.matches.unmatchTitle', { name })}
        text={t('app.matches.unmatchText', { name })}
        confirmLabel={t('app.matches.unmatchConfirm')}
        busy={busy}
        onConfirm={() =>
          unmatch.mutate(profileId, {
            onSuccess: () => {
              setStep('closed');
              onDone();
            },
            onError: () => setStep('menu'),
          })
        }
        onClose={() => {
          if (step === 'unmatch') close();
        }}
      />
    </>
  );
}
