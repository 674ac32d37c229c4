import { useCallback, useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import type { CurrentUserResponse } from '@contract/accounts.ts';
import { useLogin } from '../../api/queries/session.ts';
import { ExternalSignIn } from '../../components/ExternalSignIn.tsx';
import { ErrorLine } from '../../components/States.tsx';
import { errorText } from '../../lib/errorText.ts';
import { useSession } from '../../session/SessionProvider.tsx';

/**
 * `/login`: e-mail and password; success takes the user the answer carries (spec sections 2, 4: "then user
 * refetched", without a second request) and goes to /search, or back to the screen that asked for a sign-in.
 */
export default function LoginScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { adopt } = useSession();
  // Sent here from a members-only screen (components/Layout.tsx): back there after signing in.
  const from = (useLocation().state as { from?: unknown } | null)?.from;
  const destination = typeof from === 'string' && /^\/(?![/\\])/.test(from) && !from.includes('\\') ? from : '/search';
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const login = useLogin();
  // Signed in: still busy while the session is read and the app moves on.
  const busy = login.isPending || login.isSuccess;
  /** Google's or Telegram's sign-in failing (ExternalSignIn); the form's own failure comes from `login`. */
  const [externalError, setExternalError] = useState<string | null>(null);
  const error = login.error
    ? errorText(t, login.error, 'app.errors.loginFailed', 'app.errors.loginError')
    : externalError;
  const { reset: resetLogin } = login;
  const externalFailed = useCallback(
    (message: string) => {
      resetLogin();
      setExternalError(message);
    },
    [resetLogin],
  );

  const signedIn = useCallback(
    (user: CurrentUserResponse) => adopt(user, () => void navigate(destination)),
    [adopt, destination, navigate],
  );

  function submit(event: SyntheticEvent) {
    event.preventDefault();
    setExternalError(null);
    login.mutate({ email, password }, { onSuccess: (answer) => signedIn(answer.current_user) });
  }

  return (
    <div className="card auth">
      <h1>{t('app.login.title')}</h1>
      <p className="muted">{t('app.login.subtitle')}</p>
      <form onSubmit={submit}>
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
        <label className="field">
          <span>{t('app.auth.password')}</span>
          <input
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        <p className="form-aside">
          <Link to="/forgot-password" className="quiet-link">
            {t('app.login.forgot')}
          </Link>
        </p>
        <ErrorLine message={error} />
        <button type="submit" className="button large block" disabled={busy}>
          {busy ? t('app.common.wait') : t('app.login.submit')}
        </button>
      </form>
      <ExternalSignIn onSignedIn={signedIn} onError={externalFailed} />
      <p className="switch">
        {t('app.login.noAccount')} <Link to="/register">{t('app.login.toRegister')}</Link>
      </p>
    </div>
  );
}
