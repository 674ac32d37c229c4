import { useCallback, useEffect, useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { CurrentUserResponse, SessionResponse } from '@contract/accounts.ts';
import { loadCsrfToken } from '../../api/client.ts';
import { useRegister } from '../../api/queries/session.ts';
import { ExternalSignIn } from '../../components/ExternalSignIn.tsx';
import { ErrorLine } from '../../components/States.tsx';
import { NewPasswordField, useNewPassword } from '../../components/NewPasswordField.tsx';
import { errorText } from '../../lib/errorText.ts';
import { useSession } from '../../session/SessionProvider.tsx';
import { PrivacyConsent, usePrivacyWarning } from './PrivacyConsent.tsx';

/**
 * `/register` (spec sections 2, 4, 5): e-mail, password, privacy checkbox (a 3 s warning when unticked),
 * the password rule; the server signs the new account in and answers the user, who is sent to /search
 * (from where an unverified account goes on to /verify).
 */
export default function RegisterScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { adopt } = useSession();
  const [email, setEmail] = useState('');
  const password = useNewPassword();
  const [agreed, setAgreed] = useState(false);
  const [privacyWarning, warnAboutPrivacy] = usePrivacyWarning();
  /** The form's one message line: the server's refusal, the sign-in after it, or Google's or Telegram's. */
  const [error, setError] = useState<string | null>(null);
  const register = useRegister();
  /** Registered, or the sign-in after it under way. */
  const [signingIn, setSigningIn] = useState(false);
  const busy = register.isPending || signingIn;

  useEffect(() => {
    // Spec section 2: the CSRF token is loaded when the form opens.
    void loadCsrfToken().catch(() => undefined);
  }, []);

  const signedIn = useCallback(
    (user: CurrentUserResponse) => adopt(user, () => void navigate('/search')),
    [adopt, navigate],
  );

  async function submit(event: SyntheticEvent) {
    event.preventDefault();
    setError(null);
    if (!agreed) {
      warnAboutPrivacy();
      return;
    }
    if (!password.check()) return;
    let answer: SessionResponse;
    try {
      answer = await register.mutateAsync({ email, password: password.value });
    } catch (failure) {
      setError(errorText(t, failure, 'app.errors.registerFailed'));
      return;
    }
    setSigningIn(true);
    // The answer carries the signed-in user; without a session in it the account exists but is not signed in.
    if (!answer.current_user.authorized) {
      setError(t('app.errors.registerLoginFailed'));
      setSigningIn(false);
      return;
    }
    signedIn(answer.current_user);
  }

  return (
    <div className="card auth">
      <h1>{t('app.register.title')}</h1>
      <p className="muted">{t('app.register.subtitle')}</p>
      <form onSubmit={(e) => void submit(e)}>
        <label className="field">
          <span>{t('app.auth.email')}</span>
          <input
            type="email"
            name="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </label>
        <NewPasswordField label={t('app.auth.password')} name="password" hintId="password-hint" field={password} />
        <PrivacyConsent agreed={agreed} onAgreed={setAgreed} warning={privacyWarning} />
        <ErrorLine message={error} />
        <button type="submit" className="button large block" disabled={busy}>
          {busy ? t('app.common.wait') : t('app.register.submit')}
        </button>
      </form>
      <ExternalSignIn onSignedIn={signedIn} onError={setError} />
      <p className="switch">
        {t('app.register.haveAccount')} <Link to="/login">{t('app.register.toLogin')}</Link>
      </p>
    </div>
  );
}
