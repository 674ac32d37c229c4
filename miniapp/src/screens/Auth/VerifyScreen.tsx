import { useEffect, useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { useResendCode, useVerifyCode } from '../../api/queries/verification.ts';
import { CodeField, codeLength } from '../../components/CodeField.tsx';
import { ErrorLine, Loading } from '../../components/States.tsx';
import { resendCountdownSeconds } from '../../lib/constants.ts';
import { errorText } from '../../lib/errorText.ts';
import { useSession } from '../../session/SessionProvider.tsx';

/**
 * `/verify` (spec sections 2, 4, 8): the 6-digit code from the mail; Resend stays disabled for a 60 s
 * countdown (a code was just sent at registration, and the server allows one per minute).
 */
export default function VerifyScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { session, refresh } = useSession();
  const [code, setCode] = useState('');
  const verify = useVerifyCode();
  const resendCode = useResendCode();
  // Verified: still busy while the session is read again and the app moves on.
  const busy = verify.isPending || verify.isSuccess;
  // The latest of the two calls speaks: each clears the other when it starts.
  const error = verify.error
    ? errorText(t, verify.error, 'app.errors.verifyInvalid', 'app.errors.verifyError')
    : resendCode.error
      ? errorText(t, resendCode.error, 'app.errors.resendFailed', 'app.errors.resendError')
      : null;
  const notice = resendCode.isSuccess ? t('app.verify.sent') : null;
  const [secondsLeft, setSecondsLeft] = useState(resendCountdownSeconds);

  useEffect(() => {
    if (secondsLeft <= 0) return;
    const timer = window.setTimeout(() => setSecondsLeft((s) => s - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [secondsLeft]);

  if (session.status === 'loading') return <Loading />;
  if (session.status === 'anonymous') return <Navigate to="/login" replace />;
  if (session.verified) return <Navigate to="/search" replace />;

  function submit(event: SyntheticEvent) {
    event.preventDefault();
    resendCode.reset();
    verify.mutate(code.trim(), { onSuccess: () => void refresh(() => void navigate('/search', { replace: true })) });
  }

  // Not while a code is being checked (the button is disabled then): the reset would detach the check,
  // and its success (the session read again, on to the deck) would never run.
  function resend() {
    verify.reset();
    setSecondsLeft(resendCountdownSeconds);
    resendCode.mutate();
  }

  return (
    <div className="card auth">
      <h1>{t('app.verify.title')}</h1>
      <p className="muted">{t('app.verify.subtitle')}</p>
      <form onSubmit={submit}>
        <CodeField label={t('app.verify.code')} value={code} onChange={setCode} />
        <ErrorLine message={error} />
        {notice && (
          <p className="notice" role="status">
            {notice}
          </p>
        )}
        <button type="submit" className="button large block" disabled={busy || code.length !== codeLength}>
          {busy ? t('app.common.wait') : t('app.verify.submit')}
        </button>
      </form>
      <button type="button" className="button secondary block" disabled={secondsLeft > 0 || busy} onClick={resend}>
        {secondsLeft > 0 ? t('app.verify.resendIn', { seconds: secondsLeft }) : t('app.verify.resend')}
      </button>
    </div>
  );
}
