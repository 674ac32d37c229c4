import type { SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CodeField, codeLength } from '../../components/CodeField.tsx';
import { NewPasswordField, type NewPassword } from '../../components/NewPasswordField.tsx';
import { ErrorLine } from '../../components/States.tsx';

/** The three steps of `/forgot-password` (ForgotPasswordScreen holds their state and calls). */

/** Step 1: the address the code goes to. */
export function EmailStep({
  email,
  onEmail,
  error,
  sending,
  onSubmit,
}: {
  email: string;
  onEmail: (email: string) => void;
  error: string | null;
  sending: boolean;
  onSubmit: (event: SyntheticEvent) => void;
}) {
  const { t } = useTranslation();
  return (
    <form onSubmit={onSubmit}>
      <p className="muted">{t('app.forgot.emailStep')}</p>
      <label className="field">
        <span>{t('app.auth.email')}</span>
        <input
          type="email"
          name="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => onEmail(e.target.value)}
        />
      </label>
      <ErrorLine message={error} />
      <button type="submit" className="button large block" disabled={sending}>
        {sending ? t('app.common.wait') : t('app.forgot.sendCode')}
      </button>
    </form>
  );
}

/** Step 2: the code from the mail, another code after the countdown, or back to another address. */
export function CodeStep({
  email,
  code,
  onCode,
  error,
  sent,
  secondsLeft,
  sending,
  onSubmit,
  onResend,
  onOtherEmail,
}: {
  email: string;
  code: string;
  onCode: (code: string) => void;
  error: string | null;
  /** Say that a code went out. */
  sent: boolean;
  secondsLeft: number;
  sending: boolean;
  onSubmit: (event: SyntheticEvent) => void;
  onResend: () => void;
  onOtherEmail: () => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <form onSubmit={onSubmit}>
        <p className="muted">{t('app.forgot.codeStep', { email })}</p>
        <CodeField label={t('app.forgot.code')} value={code} onChange={onCode} />
        <ErrorLine message={error} />
        {sent && (
          <p className="notice" role="status">
            {t('app.forgot.sent')}
          </p>
        )}
        <button type="submit" className="button large block" disabled={code.length !== codeLength}>
          {t('app.forgot.next')}
        </button>
      </form>
      <button type="button" className="button secondary block" disabled={secondsLeft > 0 || sending} onClick={onResend}>
        {secondsLeft > 0 ? t('app.forgot.resendIn', { seconds: secondsLeft }) : t('app.forgot.resend')}
      </button>
      <p className="switch">
        <button type="button" className="text-button" onClick={onOtherEmail}>
          {t('app.forgot.otherEmail')}
        </button>
      </p>
    </>
  );
}

/** Step 3: the new password. */
export function PasswordStep({
  password,
  error,
  busy,
  onSubmit,
}: {
  password: NewPassword;
  error: string | null;
  busy: boolean;
  onSubmit: (event: SyntheticEvent) => void;
}) {
  const { t } = useTranslation();
  return (
    <form onSubmit={onSubmit}>
      <p className="muted">{t('app.forgot.passwordStep')}</p>
      <NewPasswordField
        label={t('app.forgot.newPassword')}
        name="new-password"
        hintId="password-hint"
        field={password}
      />
      <ErrorLine message={error} />
      <button type="submit" className="button large block" disabled={busy}>
        {busy ? t('app.common.wait') : t('app.forgot.submit')}
      </button>
    </form>
  );
}
