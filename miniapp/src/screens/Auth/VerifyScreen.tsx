import { useEffect, useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { verificationQueries } from '../../api/queries/verification.ts';
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
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [secondsLeft, setSecondsLeft] = useState(resendCountdownSeconds);

  useEffect(() => {
    if (secondsLeft <= 0) return;
    const timer = window.setTimeout(() => setSecondsLeft((s) => s - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [secondsLeft]);

  if (session.status === 'loading') return <Loading />;
  if (session.status === 'anonymous') return <Navigate to="/login" replace />;
  if (session.verified) return <Navigate to="/search" replace />;

  async function submit(event: SyntheticEvent) {
    event.preventDefault();
    setError(null);
    setNotice(null);
    setBusy(true);
    try {
      await verificationQueries.verify(code.trim());
      await refresh(() => void navigate('/search', { replace: true }));
    } catch (failure) {
      setError(errorText(t, failure, 'app.errors.verifyInvalid', 'app.errors.verifyError'));
      setBusy(false);
    }
  }

  async function resend() {
    setError(null);
    setNotice(null);
    setSecondsLeft(resendCountdownSeconds);
    try {
      await verificationQueries.resend();
      setNotice(t('app.verify.sent'));
    } catch (failure) {
      setError(errorText(t, failure, 'app.errors.resendFailed', 'app.errors.resendError'));
    }
  }

  return (
    <div className="card auth">
      <h1>{t('app.verify.title')}</h1>
      <p className="muted">{t('app.verify.subtitle')}</p>
      <form onSubmit={(e) => void submit(e)}>
        <label className="field">
          <span>{t('app.verify.code')}</span>
          <input
            className="code-input"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]{6}"
            maxLength={6}
            required
            value={code}
            onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
          />
        </label>
        <ErrorLine message={error} />
        {notice && (
          <p className="notice" role="status">
            {notice}
          </p>
        )}
        <button type="submit" className="button large block" disabled={busy || code.length !== 6}>
          {busy ? t('app.common.wait') : t('app.verify.submit')}
        </button>
      </form>
      <button type="button" className="button secondary block" disabled={secondsLeft > 0} onClick={() => void resend()}>
        {secondsLeft > 0 ? t('app.verify.resendIn', { seconds: secondsLeft }) : t('app.verify.resend')}
      </button>
    </div>
  );
}
