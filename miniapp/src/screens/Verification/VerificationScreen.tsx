import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { VerificationState } from '@contract/photoVerification.ts';
import { ApiError } from '../../api/ApiError.ts';
import {
  useFreshVerificationState,
  useSubmitSelfie,
  useVerificationState,
  useWithdrawConsent,
} from '../../api/queries/photoVerification.ts';
import { ConfirmSheet } from '../../components/ConfirmSheet.tsx';
import { ErrorLine, QueryView } from '../../components/States.tsx';
import { VerifiedBadge } from '../../components/VerifiedBadge.tsx';
import { errorText } from '../../lib/errorText.ts';
import { platform } from '../../platform/index.ts';
import { selfieJpeg } from './selfieJpeg.ts';
import './Verification.css';

/**
 * `/verification` (Menu → Photo verification, issue 40): where the person stands, and, until verified or
 * waiting for a moderator, a selfie in the pose the server asked for, sent only after the explicit consent
 * to biometric processing. The answer (verified, rejected with the reason, or a moderator will look) shows
 * here at once; a rejected selfie comes back with a new pose to try. Consent can be withdrawn here too.
 */
export default function VerificationScreen() {
  const { t } = useTranslation();
  const state = useVerificationState();
  return (
    <section className="verification" aria-labelledby="verification-title">
      <h1 id="verification-title">{t('verification.title')}</h1>
      <QueryView query={state} failedKey="verification.loadFailed">
        {(s) => (
          <>
            {/* What a selfie is for and where it goes, while one can be sent. */}
            {(s.status === 'none' || s.status === 'rejected') && <p className="muted">{t('verification.intro')}</p>}
            <StatusCard state={s} />
            {(s.status === 'none' || s.status === 'rejected') && (
              // One form for the whole visit (no key): a refetch (reconnect, focus) brings a new random pose,
              // which must not reset a selfie being taken or sent; the form keeps the pose it showed.
              <SelfieForm state={s} />
            )}
            {s.consent && <ConsentCard />}
          </>
        )}
      </QueryView>
    </section>
  );
}

/** Where the person stands: the status, and why when the server says (a rejection, a moderator's look). */
function StatusCard({ state }: { state: VerificationState }) {
  const { t } = useTranslation();
  const { status, reason } = state;
  // "review" repeats what `pending` already says; any other reason is the news.
  const text =
    reason !== null && !(status === 'pending' && reason === 'review')
      ? t(`verification.reason.${reason}`)
      : t(`verification.statusText.${status}`);
  return (
    <div className={`card verification-status ${status}`} role="status" data-status={status}>
      {status === 'verified' ? (
        // The badge itself, as others see it beside the name, named for screen readers.
        <span className="verification-icon">
          <VerifiedBadge verified />
        </span>
      ) : (
        <span className="verification-icon" aria-hidden="true">
          {status === 'processing' ? <span className="spinner" /> : <StatusIcon status={status} />}
        </span>
      )}
      <div>
        <h2>{t(`verification.status.${status}`)}</h2>
        <p data-reason={reason ?? undefined}>{text}</p>
      </div>
    </div>
  );
}

/** Line icons (not emoji: a phone without the emoji font shows a box): a face, a clock, a cross. */
function StatusIcon({ status }: { status: 'none' | 'pending' | 'rejected' }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width="24"
      height="24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
    >
      {status === 'none' && (
        <>
          <circle cx="12" cy="12" r="9" />
          <path d="M8.5 14.5c1.8 1.8 5.2 1.8 7 0M9 9.5h.01M15 9.5h.01" />
        </>
      )}
      {status === 'pending' && (
        <>
          <circle cx="12" cy="12" r="9" />
          <path d="M12 7v5l3 2" />
        </>
      )}
      {status === 'rejected' && <path d="M7 7l10 10M17 7L7 17" />}
    </svg>
  );
}

/** The pose, the consent box, and the camera (a file input on the web and inside Telegram alike). */
function SelfieForm({ state }: { state: VerificationState }) {
  const { t } = useTranslation();
  const submit = useSubmitSelfie();
  const fresh = useFreshVerificationState();
  // The pose shown stays until the next attempt's answer brings the next one (or the offer expired).
  const [pose, setPose] = useState(state.pose);
  const [consent, setConsent] = useState(state.consent);
  const [progress, setProgress] = useState(0);
  /** The file could not be read here; the upload's own failure comes from the mutation. */
  const [problem, setProblem] = useState<string | null>(null);
  const busy = submit.isPending;

  async function send(file: File | undefined) {
    setProblem(null);
    submit.reset();
    if (!file || !consent) return;
    let selfie: Blob;
    try {
      selfie = await selfieJpeg(file);
    } catch {
      setProblem(t('app.wizard.unreadable'));
      return;
    }
    setProgress(0);
    submit.mutate(
      { selfie, pose, onProgress: setProgress },
      {
        onSuccess: (next) => {
          setPose(next.pose);
          platform().haptic(
            next.status === 'verified' ? 'success' : next.status === 'rejected' ? 'error' : 'selection',
          );
        },
        onError: (error) => {
          platform().haptic('error');
          // The offer expired (the screen stayed open long): show a new pose, with the reason above it.
          if (error instanceof ApiError && error.code === 'pose_not_offered')
            void fresh().then(
              (next) => setPose(next.pose),
              () => undefined,
            );
        },
      },
    );
  }

  const error = problem ?? (submit.error ? errorText(t, submit.error, 'verification.failed') : null);
  return (
    <div className="card verification-form">
      <h2>{t('verification.poseTitle')}</h2>
      <p className="verification-pose" data-pose={pose.id}>
        {pose.text}
      </p>
      <label className="check">
        <input
          type="checkbox"
          name="consent"
          checked={consent}
          disabled={busy}
          onChange={(e) => setConsent(e.target.checked)}
        />
        <span>{t('verification.consent')}</span>
      </label>
      <label className={`button block file-button${consent && !busy ? '' : ' disabled'}`}>
        {busy
          ? t('verification.uploading')
          : state.status === 'rejected'
            ? t('verification.retry')
            : t('verification.takeSelfie')}
        <input
          type="file"
          name="selfie"
          accept="image/*"
          capture="user"
          className="visually-hidden"
          disabled={!consent || busy}
          onChange={(e) => {
            void send(e.target.files?.[0]);
            // The same file can be picked again after a failure.
            e.target.value = '';
          }}
        />
      </label>
      {!consent && <p className="hint">{t('verification.consentRequired')}</p>}
      {busy && (
        <progress className="upload-progress" max={1} value={progress} aria-label={t('verification.uploading')} />
      )}
      <ErrorLine message={error} />
    </div>
  );
}

/** Consent on record: what it allows, and withdrawing it (confirmed), which deletes the face data. */
function ConsentCard() {
  const { t } = useTranslation();
  const withdraw = useWithdrawConsent();
  const [confirming, setConfirming] = useState(false);
  return (
    <div className="card verification-consent">
      <h2>{t('verification.consentTitle')}</h2>
      <p className="muted">{t('verification.consentGiven')}</p>
      <button type="button" className="button secondary block danger" onClick={() => setConfirming(true)}>
        {t('verification.withdraw')}
      </button>
      <ErrorLine message={withdraw.error ? errorText(t, withdraw.error, 'verification.withdrawFailed') : null} />
      <ConfirmSheet
        open={confirming}
        title={t('verification.withdrawTitle')}
        text={t('verification.withdrawText')}
        confirmLabel={t('verification.withdrawConfirm')}
        busy={withdraw.isPending}
        onConfirm={() =>
          withdraw.mutate(undefined, {
            onSuccess: () => {
              setConfirming(false);
              platform().haptic('success');
            },
            onError: () => setConfirming(false),
          })
        }
        onClose={() => setConfirming(false)}
      />
    </div>
  );
}
