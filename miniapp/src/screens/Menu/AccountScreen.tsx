import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { AccountResponse } from '@contract/accounts.ts';
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
      <DevicesSection sessions={account.data.sessions} />
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
            <button type="button" className="button secondary small" disabled={only || unlink.isPending} onClick={() => unlink.mutate(method)}>
              {t('app.account.remove')}
            </button>
          </li>
        ))}
      </ul>
      {only && <p className="hint">{t('app.account.lastMethod')}</p>}
      <ErrorLine message={unlink.error ? errorText(t, unlink.error, 'app.account.removeFailed') : null} />
      {!account.has_password && account.email && (
        <form onSubmit={add}>
          <NewPasswordField label={t('app.account.addPassword')} name="first-password" hintId="first-password-hint" field={password} />
          <ErrorLine message={addPassword.error ? errorText(t, addPassword.error, 'app.account.passwordFailed') : null} />
          <button type="submit" className="button block" disabled={addPassword.isPending}>
            {addPassword.isPending ? t('app.common.wait') : t('app.account.savePassword')}
          </button>
        </form>
      )}
      {!account.has_password && !account.email && <p className="hint">{t('app.account.emailFirst')}</p>}
      {!account.sign_in_methods.includes('telegram') && <BotLink />}
    </section>
  );
}

/**
 * "Link Telegram via the bot": asks for a one-time deep link, then offers it to open (a link the user taps,
 * so no pop-up blocker stands in the way after the request). Shown only when the server has a bot.
 */
function BotLink() {
  const { t } = useTranslation();
  const config = usePublicConfig();
  const link = useTelegramBotLink();
  if (!config?.bot_username) return null;
  return (
    <div className="bot-link">
      <h3>{t('app.account.method.telegram')}</h3>
      {link.data ? (
        <a className="button block" href={link.data.url} target="_blank" rel="noopener noreferrer" data-testid="bot-link">
          {t('app.account.openBot')}
        </a>
      ) : (
        <button type="button" className="button secondary block" disabled={link.isPending} onClick={() => link.mutate()}>
          {link.isPending ? t('app.common.wait') : t('app.account.linkViaBot')}
        </button>
      )}
      <p className="hint">{t('app.account.linkViaBotHint')}</p>
      <ErrorLine message={link.error ? errorText(t, link.error, 'app.account.linkFailed') : null} />
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
        <NewPasswordField label={t('app.forgot.newPassword')} name="new-password" hintId="account-password-hint" field={password} />
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
      <p className="muted">{account.email ? t('app.account.emailNow', { email: account.email }) : t('app.account.noEmail')}</p>
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
            <input type="email" name="new-email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
          </label>
          {account.has_password && <CurrentPasswordField name="email-password" value={password} onChange={setPassword} />}
          <ErrorLine message={request.error ? errorText(t, request.error, 'app.account.emailFailed') : null} />
          <button type="submit" className="button block" disabled={request.isPending}>
            {request.isPending ? t('app.common.wait') : t('app.account.sendCode')}
          </button>
        </form>
      )}
    </section>
  );
}

/** The password the account has now, asked again before it or the e-mail address changes. */
function CurrentPasswordField({ name, value, onChange }: { name: string; value: string; onChange: (value: string) => void }) {
  const { t } = useTranslation();
  return (
    <label className="field">
      <span>{t('app.account.currentPassword')}</span>
      <input type="password" name={name} autoComplete="current-password" required value={value} onChange={(e) => onChange(e.target.value)} />
    </label>
  );
}

function DevicesSection({ sessions }: { sessions: AccountResponse['sessions'] }) {
  const { t, i18n } = useTranslation();
  const endSession = useEndSession();
  const endOthers = useEndOtherSessions();
  const when = (iso: string) => new Date(iso).toLocaleString(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
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
              <small className="hint">{t('app.account.lastSeen', { time: when(session.last_seen_at ?? session.signed_in_at) })}</small>
            </div>
            {!session.current && (
              <button type="button" className="button secondary small" disabled={endSession.isPending} onClick={() => endSession.mutate(session.id)}>
                {t('app.account.signOut')}
              </button>
            )}
          </li>
        ))}
      </ul>
      <ErrorLine message={failure ? errorText(t, failure, 'app.account.signOutFailed') : null} />
      {sessions.length > 1 && (
        <button type="button" className="button secondary block" disabled={endOthers.isPending} onClick={() => endOthers.mutate()}>
          {t('app.account.signOutOthers')}
        </button>
      )}
    </section>
  );
}
