import { useEffect, useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '../../api/ApiError.ts';
import { useForgotPassword, useResetPassword } from '../../api/queries/passwordReset.ts';
import { CodeField, codeLength } from '../../components/CodeField.tsx';
import { ErrorLine } from '../../components/States.tsx';
import { NewPasswordField, useNewPassword } from '../../components/NewPasswordField.tsx';
import { SupportContact } from '../../components/SupportContact.tsx';
import { resendCountdownSeconds } from '../../lib/constants.ts';
import { errorText } from '../../lib/errorText.ts';
import { useSession } from '../../session/SessionProvider.tsx';

type Step = 'email' | 'code' | 'password';

/**
 * Refusals of the code itself: the person goes back to the code step to type it again or ask for another.
 * The server answers every refused reset code alike (`reset_code_invalid`), so none tells which addresses are registered.
 */
const codeRefusals = new Set(['reset_code_invalid', 'invalid_code', 'code_expired', 'too_many_attempts']);

/**
 * `/forgot-password`: the e-mail, then the 6-digit code from the mail, then the new password; the reset
 * signs this device in (every other session ends) and goes on to the deck. The code step says the same
 * for any address, as the server does.
 */
export default function ForgotPasswordScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { adopt } = useSession();
  const [step, setStep] = useState<Step>('email');
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const password = useNewPassword();
  const [secondsLeft, setSecondsLeft] = useState(0);
  const forgot = useForgotPassword();
  const reset = useResetPassword();
  const busy = reset.isPending || reset.isSuccess;

  useEffect(() => {
    if (secondsLeft <= 0) return;
    const timer = window.setTimeout(() => setSecondsLeft((s) => s - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [secondsLeft]);

  const codeRefused = reset.error instanceof ApiError && codeRefusals.has(reset.error.code ?? '');
  const error = reset.error
    ? errorText(t, reset.error, 'app.forgot.failed', 'app.forgot.error')
    : forgot.error
      ? errorText(t, forgot.error, 'app.forgot.sendFailed', 'app.forgot.sendError')
      : null;

  function sendCode(onSent?: () => void) {
    reset.reset();
    setSecondsLeft(resendCountdownSeconds);
    forgot.mutate(email.trim(), { onSuccess: onSent });
  }

  function submitEmail(event: SyntheticEvent) {
    event.preventDefault();
    sendCode(() => setStep('code'));
  }

  function submitCode(event: SyntheticEvent) {
    event.preventDefault();
    reset.reset();
    forgot.reset();
    setStep('password');
  }

  function submitPassword(event: SyntheticEvent) {
    event.preventDefault();
    if (!password.check()) return;
    reset.mutate(
      { email: email.trim(), code, password: password.value },
      {
        onSuccess: (answer) => adopt(answer.current_user, () => void navigate('/search', { replace: true })),
        onError: (failure) => {
          if (failure instanceof ApiError && codeRefusals.has(failure.code ?? '')) setStep('code');
        },
      },
    );
  }

  return (
    <div className="card auth">
      <h1>{t('app.forgot.title')}</h1>
      {step === 'email' && (
        <form onSubmit={submitEmail}>
          <p className="muted">{t('app.forgot.emailStep')}</p>
          <label className="field">
            <span>{t('app.auth.email')}</span>
            <input type="email" name="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
          </label>
          <ErrorLine message={error} />
          <button type="submit" className="button large block" disabled={forgot.isPending}>
            {forgot.isPending ? t('app.common.wait') : t('app.forgot.sendCode')}
          </button>
        </form>
      )}
      {step === 'code' && (
        <>
          <form onSubmit={submitCode}>
            <p className="muted">{t('app.forgot.codeStep', { email: email.trim() })}</p>
            <CodeField label={t('app.forgot.code')} value={code} onChange={setCode} />
            {/* Only the code's own refusal belongs here; anything else was said on the step it happened. */}
            <ErrorLine message={codeRefused || forgot.error ? error : null} />
            {forgot.isSuccess && secondsLeft < resendCountdownSeconds && !reset.error && (
              <p className="notice" role="status">
                {t('app.forgot.sent')}
              </p>
            )}
            <button type="submit" className="button large block" disabled={code.length !== codeLength}>
              {t('app.forgot.next')}
            </button>
          </form>
          <button type="button" className="button secondary block" disabled={secondsLeft > 0 || forgot.isPending} onClick={() => sendCode()}>
            {secondsLeft > 0 ? t('app.forgot.resendIn', { seconds: secondsLeft }) : t('app.forgot.resend')}
          </button>
          <p className="switch">
            <button type="button" className="text-button" onClick={() => setStep('email')}>
              {t('app.forgot.otherEmail')}
            </button>
          </p>
        </>
      )}
      {step === 'password' && (
        <form onSubmit={submitPassword}>
          <p className="muted">{t('app.forgot.passwordStep')}</p>
          <NewPasswordField label={t('app.forgot.newPassword')} name="new-password" hintId="password-hint" field={password} />
          <ErrorLine message={codeRefused ? null : error} />
          <button type="submit" className="button large block" disabled={busy}>
            {busy ? t('app.common.wait') : t('app.forgot.submit')}
          </button>
        </form>
      )}
      <p className="switch">
        <Link to="/login">{t('app.forgot.backToLogin')}</Link>
      </p>
      <SupportContact />
    </div>
  );
}
