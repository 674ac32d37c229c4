import { useEffect, useState, type SyntheticEvent } from 'react';
import { z } from 'zod/mini';
import { resetLinkToken } from '@contract/accounts.ts';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
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
 * Referer). Read during render (pure: React may render and discard it), taken off the address bar by an
 * effect once the screen is shown, so the token stays in no history entry. A token cut short by a mail
 * client is a used-up link, said as such, rather than a form error the person cannot act on.
 */
function linkFromMail(): { email: string; token: string | null } | null {
  const fields = new URLSearchParams(window.location.hash.slice(1));
  const email = fields.get('email');
  const token = fields.get('token');
  if (!email || token === null) return null;
  return { email, token: z.safeParse(resetLinkToken, token).success ? token : null };
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
  const [opened] = useState(linkFromMail);
  const [link, setLink] = useState(opened?.token ? { email: opened.email, token: opened.token } : null);
  const [linkRefused, setLinkRefused] = useState(opened !== null && opened.token === null);
  const [step, setStep] = useState<Step>(link ? 'password' : 'email');
  const [email, setEmail] = useState(opened?.email ?? '');
  // Through the router, which otherwise keeps (and on its next navigation restores) the address it read.
  const { pathname, search, hash } = useLocation();
  useEffect(() => {
    if (hash) void navigate({ pathname, search }, { replace: true });
  }, [hash, pathname, search, navigate]);
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
