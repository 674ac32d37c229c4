import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '../../api/ApiError.ts';
import { useForgotPassword, useResetPassword } from '../../api/queries/passwordReset.ts';
import { useNewPassword } from '../../components/NewPasswordField.tsx';
import { SupportContact } from '../../components/SupportContact.tsx';
import { useResendCountdown } from '../../components/useResendCountdown.ts';
import { resendCountdownSeconds } from '../../lib/constants.ts';
import { errorText } from '../../lib/errorText.ts';
import { useSession } from '../../session/SessionProvider.tsx';
import { CodeStep, EmailStep, PasswordStep } from './ForgotPasswordSteps.tsx';

type Step = 'email' | 'code' | 'password';

/**
 * The reset mail's link: `/forgot-password#email=…&token=…` (the fragment never reaches a server or a
 * Referer). Read once, then taken off the address bar so the token stays in no history entry.
 */
function linkFromMail(): { email: string; token: string } | null {
  const fields = new URLSearchParams(window.location.hash.slice(1));
  const email = fields.get('email');
  const token = fields.get('token');
  if (!email || !token) return null;
  window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
  return { email, token };
}

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
  const [link, setLink] = useState(linkFromMail);
  const [linkRefused, setLinkRefused] = useState(false);
  const [step, setStep] = useState<Step>(link ? 'password' : 'email');
  const [email, setEmail] = useState(link?.email ?? '');
  const [code, setCode] = useState('');
  const password = useNewPassword();
  const [secondsLeft, restartCountdown] = useResendCountdown(false);
  const forgot = useForgotPassword();
  const reset = useResetPassword();
  const busy = reset.isPending || reset.isSuccess;

  const codeRefused = reset.error instanceof ApiError && codeRefusals.has(reset.error.code ?? '');
  const error = linkRefused
    ? t('app.forgot.linkExpired')
    : reset.error
      ? errorText(t, reset.error, 'app.forgot.failed', 'app.forgot.error')
      : forgot.error
        ? errorText(t, forgot.error, 'app.forgot.sendFailed', 'app.forgot.sendError')
        : null;

  function sendCode(onSent?: () => void) {
    setLinkRefused(false);
    reset.reset();
    restartCountdown();
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
    const proof = link ? { token: link.token } : { code };
    reset.mutate(
      { email: email.trim(), ...proof, password: password.value },
      {
        onSuccess: (answer) => adopt(answer.current_user, () => void navigate('/search', { replace: true })),
        onError: (failure) => {
          if (!(failure instanceof ApiError && codeRefusals.has(failure.code ?? ''))) return;
          if (!link) {
            setStep('code');
            return;
          }
          // An old or used link: back to asking for a new mail, the address already filled in.
          setLink(null);
          setLinkRefused(true);
          reset.reset();
          setStep('email');
        },
      },
    );
  }

  return (
    <div className="card auth">
      <h1>{t('app.forgot.title')}</h1>
      {step === 'email' && (
        <EmailStep email={email} onEmail={setEmail} error={error} sending={forgot.isPending} onSubmit={submitEmail} />
      )}
      {step === 'code' && (
        <CodeStep
          email={email.trim()}
          code={code}
          onCode={setCode}
          // Only the code's own refusal belongs here; anything else was said on the step it happened.
          error={codeRefused || forgot.error ? error : null}
          sent={forgot.isSuccess && secondsLeft < resendCountdownSeconds && !reset.error}
          secondsLeft={secondsLeft}
          sending={forgot.isPending}
          onSubmit={submitCode}
          onResend={() => sendCode()}
          onOtherEmail={() => setStep('email')}
        />
      )}
      {step === 'password' && (
        <PasswordStep password={password} error={codeRefused ? null : error} busy={busy} onSubmit={submitPassword} />
      )}
      <p className="switch">
        <Link to="/login">{t('app.forgot.backToLogin')}</Link>
      </p>
      <SupportContact />
    </div>
  );
}
