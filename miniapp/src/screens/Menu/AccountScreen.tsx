import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { AccountResponse } from '@contract/accounts.ts';
import { ApiError } from '../../api/ApiError.ts';
import {
  useAccount,
  useAddPassword,
  useChangePassword,
  useConfirmEmailChange,
  useEndOtherSessions,
  useEndSession,
  useRequestEmailChange,
  useTelegramBotLink,
  useUnlink,
} from '../../api/queries/account.ts';
import { usePublicConfig } from '../../api/queries/config.ts';
import { CodeField, codeLength } from '../../components/CodeField.tsx';
import { ErrorLine, Loading } from '../../components/States.tsx';
import { NewPasswordField, useNewPassword } from '../../components/NewPasswordField.tsx';
import { errorText } from '../../lib/errorText.ts';
import type { TranslationKey } from '../../i18n.ts';
import { platform } from '../../platform/index.ts';
import './Account.css';

/** `/account` (Menu → Account): the password, the e-mail address and the signed-in devices. */
export default function AccountScreen() {
  const { t } = useTranslation();
  const account = useAccount();
  if (account.isPending) return <Loading />;
  if (account.isError) return <ErrorLine message={errorText(t, account.error, 'app.account.loadFailed')} />;
  return (
    <div className="menu">
      <h1>{t('app.account.title')}</h1>
      <MethodsSection account={account.data} />
      {account.data.has_password && <PasswordSection />}
      <EmailSection account={account.data} />
      <DevicesSection sessions={account.data.sessions} methods={account.data.sign_in_methods} />
    </div>
  );
}

/** The ways into the account; each can go but the last (the server refuses that too). */
function MethodsSection({ account }: { account: AccountResponse }) {
  const { t } = useTranslation();
  const unlink = useUnlink();
  const addPassword = useAddPassword();
  const password = useNewPassword();
  const only = account.sign_in_methods.length === 1;

  function add(event: SyntheticEvent) {
    event.preventDefault();
    if (!password.check()) return;
    addPassword.mutate(password.value, { onSuccess: () => password.setValue('') });
  }

  return (
    <section className="card" aria-labelledby="methods-title">
      <h2 id="methods-title">{t('app.account.methodsTitle')}</h2>
      <ul className="device-list">
        {account.sign_in_methods.map((method) => (
          <li key={method} className="device">
            <strong>{t(`app.account.method.${method}`)}</strong>
            <button
              type="button"
              className="button secondary small"
              disabled={only || unlink.isPending}
              onClick={() => unlink.mutate(method)}
            >
              {t('app.account.remove')}
            </button>
          </li>
        ))}
      </ul>
      {only && <p className="hint">{t('app.account.lastMethod')}</p>}
      <ErrorLine message={unlink.error ? errorText(t, unlink.error, 'app.account.removeFailed') : null} />
      {!account.has_password && account.email && (
        <form onSubmit={add}>
          <NewPasswordField
            label={t('app.account.addPassword')}
            name="first-password"
            hintId="first-password-hint"
            field={password}
          />
          <Failure error={addPassword.error} failedKey="app.account.passwordFailed" />
          <button type="submit" className="button block" disabled={addPassword.isPending}>
            {addPassword.isPending ? t('app.common.wait') : t('app.account.savePassword')}
          </button>
        </form>
      )}
      {!account.has_password && !account.email && <p className="hint">{t('app.account.emailFirst')}</p>}
      {!account.sign_in_methods.includes('telegram') && <BotLink hasPassword={account.has_password} />}
    </section>
  );
}

/**
 * "Link Telegram via the bot": asks for a one-time deep link, then offers it to open (a link the user taps,
 * so no pop-up blocker stands in the way after the request). Shown only when the server has a bot.
 */
function BotLink({ hasPassword }: { hasPassword: boolean }) {
  const { t } = useTranslation();
  const config = usePublicConfig();
  const link = useTelegramBotLink();
  const [password, setPassword] = useState('');
  if (!config?.bot_username) return null;

  // A new way in: the account's password when it has one (else the server wants a recent sign-in).
  function ask(event: SyntheticEvent) {
    event.preventDefault();
    link.mutate(hasPassword ? { current_password: password } : {}, { onSuccess: () => setPassword('') });
  }

  return (
    <div className="bot-link">
      <h3>{t('app.account.method.telegram')}</h3>
      {link.data ? (
        <a
          className="button block"
          href={link.data.url}
          target="_blank"
          rel="noopener noreferrer"
          data-testid="bot-link"
        >
          {t('app.account.openBot')}
        </a>
      ) : (
        <form onSubmit={ask}>
          {hasPassword && <CurrentPasswordField name="bot-link-password" value={password} onChange={setPassword} />}
          <button type="submit" className="button secondary block" disabled={link.isPending}>
            {link.isPending ? t('app.common.wait') : t('app.account.linkViaBot')}
          </button>
        </form>
      )}
      <p className="hint">{t('app.account.linkViaBotHint')}</p>
      <Failure error={link.error} failedKey="app.account.linkFailed" />
    </div>
  );
}

function PasswordSection() {
  const { t } = useTranslation();
  const [current, setCurrent] = useState('');
  const password = useNewPassword();
  const change = useChangePassword();

  function submit(event: SyntheticEvent) {
    event.preventDefault();
    if (!password.check()) return;
    change.mutate(
      { current_password: current, password: password.value },
      {
        onSuccess: () => {
          setCurrent('');
          password.setValue('');
        },
      },
    );
  }

  return (
    <section className="card" aria-labelledby="password-title">
      <h2 id="password-title">{t('app.account.passwordTitle')}</h2>
      <form onSubmit={submit}>
        <CurrentPasswordField name="current-password" value={current} onChange={setCurrent} />
        <NewPasswordField
          label={t('app.forgot.newPassword')}
          name="new-password"
          hintId="account-password-hint"
          field={password}
        />
        <ErrorLine message={change.error ? errorText(t, change.error, 'app.account.passwordFailed') : null} />
        {change.isSuccess && (
          <p className="notice" role="status">
            {t('app.account.passwordChanged')}
          </p>
        )}
        <button type="submit" className="button block" disabled={change.isPending}>
          {change.isPending ? t('app.common.wait') : t('app.account.changePassword')}
        </button>
      </form>
    </section>
  );
}

function EmailSection({ account }: { account: AccountResponse }) {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const request = useRequestEmailChange();
  const confirm = useConfirmEmailChange();
  const waitingForCode = request.isSuccess && !confirm.isSuccess;

  function ask(event: SyntheticEvent) {
    event.preventDefault();
    confirm.reset();
    request.mutate({ email: email.trim(), ...(account.has_password ? { current_password: password } : {}) });
  }

  function submitCode(event: SyntheticEvent) {
    event.preventDefault();
    confirm.mutate(code, {
      onSuccess: () => {
        request.reset();
        setEmail('');
        setPassword('');
        setCode('');
      },
    });
  }

  return (
    <section className="card" aria-labelledby="email-title">
      <h2 id="email-title">{t('app.account.emailTitle')}</h2>
      <p className="muted">
        {account.email ? t('app.account.emailNow', { email: account.email }) : t('app.account.noEmail')}
      </p>
      {confirm.isSuccess && (
        <p className="notice" role="status">
          {t('app.account.emailChanged')}
        </p>
      )}
      {waitingForCode ? (
        <form onSubmit={submitCode}>
          <p className="muted">{t('app.account.codeSent', { email: email.trim() })}</p>
          <CodeField label={t('app.forgot.code')} value={code} onChange={setCode} />
          <ErrorLine message={confirm.error ? errorText(t, confirm.error, 'app.account.emailFailed') : null} />
          <button type="submit" className="button block" disabled={confirm.isPending || code.length !== codeLength}>
            {confirm.isPending ? t('app.common.wait') : t('app.account.confirmEmail')}
          </button>
        </form>
      ) : (
        <form onSubmit={ask}>
          <label className="field">
            <span>{t('app.account.newEmail')}</span>
            <input
              type="email"
              name="new-email"
              autoComplete="email"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          </label>
          {account.has_password && (
            <CurrentPasswordField name="email-password" value={password} onChange={setPassword} />
          )}
          <Failure error={request.error} failedKey="app.account.emailFailed" />
          <button type="submit" className="button block" disabled={request.isPending}>
            {request.isPending ? t('app.common.wait') : t('app.account.sendCode')}
          </button>
        </form>
      )}
    </section>
  );
}

/** The password the account has now, asked again before it or the e-mail address changes. */
function CurrentPasswordField({
  name,
  value,
  onChange,
}: {
  name: string;
  value: string;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <label className="field">
      <span>{t('app.account.currentPassword')}</span>
      <input
        type="password"
        name={name}
        autoComplete="current-password"
        required
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </label>
  );
}

/**
 * A refused change: a refusal for want of a recent sign-in (a password-less account, server
 * Reauthentication) says how to sign in again; any other failure is a plain error line.
 */
function Failure({ error, failedKey }: { error: Error | null; failedKey: TranslationKey }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  if (error instanceof ApiError && error.code === 'reauth_required') {
    // Inside Telegram a new sign-in is a new launch of the app; on the web, sign out and in, back to here.
    const telegram = platform().kind === 'telegram';
    return (
      <div className="notice" role="alert" data-testid="reauth-prompt">
        <strong>{t('app.account.reauthTitle')}</strong>
        <p>{t(telegram ? 'app.account.reauthTelegram' : 'app.account.reauthText')}</p>
        {!telegram && (
          <button
            type="button"
            className="button block"
            onClick={() => void navigate('/logout', { state: { next: '/account' } })}
          >
            {t('app.account.signInAgain')}
          </button>
        )}
      </div>
    );
  }
  return <ErrorLine message={error ? errorText(t, error, failedKey) : null} />;
}

/**
 * The signed-in devices, with the ways into the account beside "sign out everywhere": a way in someone else
 * added would let them back in after every sign-out, so the owner sees them here too (and removes them
 * under "Ways to sign in").
 */
function DevicesSection({
  sessions,
  methods,
}: {
  sessions: AccountResponse['sessions'];
  methods: AccountResponse['sign_in_methods'];
}) {
  const { t, i18n } = useTranslation();
  const endSession = useEndSession();
  const endOthers = useEndOtherSessions();
  const when = (iso: string) =>
    new Date(iso).toLocaleString(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  const failure = endSession.error ?? endOthers.error;
  return (
    <section className="card" aria-labelledby="devices-title">
      <h2 id="devices-title">{t('app.account.devicesTitle')}</h2>
      <ul className="device-list">
        {sessions.map((session) => (
          <li key={session.id} className="device">
            <div>
              <strong>{session.device ?? t('app.account.unknownDevice')}</strong>
              {session.current && <span className="device-current"> · {t('app.account.thisDevice')}</span>}
              <small className="hint">
                {t('app.account.lastSeen', { time: when(session.last_seen_at ?? session.signed_in_at) })}
              </small>
            </div>
            {!session.current && (
              <button
                type="button"
                className="button secondary small"
                disabled={endSession.isPending}
                onClick={() => endSession.mutate(session.id)}
              >
                {t('app.account.signOut')}
              </button>
            )}
          </li>
        ))}
      </ul>
      <ErrorLine message={failure ? errorText(t, failure, 'app.account.signOutFailed') : null} />
      {sessions.length > 1 && (
        <button
          type="button"
          className="button secondary block"
          disabled={endOthers.isPending}
          onClick={() => endOthers.mutate()}
        >
          {t('app.account.signOutOthers')}
        </button>
      )}
      <p className="muted" data-testid="linked-methods">
        {t('app.account.linkedMethods', {
          methods: methods.map((method) => t(`app.account.method.${method}`)).join(', '),
        })}
      </p>
      <p className="hint">{t('app.account.linkedMethodsHint')}</p>
    </section>
  );
}
