import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { useAccount, useConfirmEmailChange } from '../../api/queries/account.ts';
import { useResendCode, useVerifyCode } from '../../api/queries/verification.ts';
import { CodeField, codeLength } from '../../components/CodeField.tsx';
import { ErrorLine, Loading } from '../../components/States.tsx';
import { useResendCountdown } from '../../components/useResendCountdown.ts';
import { errorText } from '../../lib/errorText.ts';
import { useSession } from '../../session/SessionProvider.tsx';
import { ChangeAddress, SentTo } from './VerifyAddress.tsx';

/**
 * `/verify` (spec sections 2, 4, 8): the 6-digit code from the mail, and the address it went to; Resend
 * stays disabled for a 60 s countdown (a code was just sent at registration, and the server allows one
 * per minute). A mistyped address is corrected here with "Change e-mail": the account's e-mail change
 * (POST /api/account/email, then /confirm) mails a code to the new address, and that code both sets the
 * address and verifies the account (it proves the new address), so nothing unproven is ever trusted.
 */
export default function VerifyScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { session, refresh } = useSession();
  const [code, setCode] = useState('');
  const account = useAccount(session.status === 'signedIn');
  // Set once a code went to a corrected address: the code entered then confirms that address.
  const [changedTo, setChangedTo] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const verify = useVerifyCode();
  const confirmNew = useConfirmEmailChange();
  const check = changedTo ? confirmNew : verify;
  const resendCode = useResendCode();
  // Verified: still busy while the session is read again and the app moves on.
  const busy = check.isPending || check.isSuccess;
  // The latest of the two calls speaks: each clears the other when it starts.
  const error = check.error
    ? errorText(t, check.error, 'app.errors.verifyInvalid', 'app.errors.verifyError')
    : resendCode.error
      ? errorText(t, resendCode.error, 'app.errors.resendFailed', 'app.errors.resendError')
      : null;
  const notice = resendCode.isSuccess ? t('app.verify.sent') : null;
  const address = changedTo ?? account.data?.email ?? null;
  const [secondsLeft, restartCountdown] = useResendCountdown(true);

  if (session.status === 'loading') return <Loading />;
  if (session.status === 'anonymous') return <Navigate to="/login" replace />;
  if (session.verified) return <Navigate to="/search" replace />;

  function submit(event: SyntheticEvent) {
    event.preventDefault();
    resendCode.reset();
    check.mutate(code.trim(), { onSuccess: () => void refresh(() => void navigate('/search', { replace: true })) });
  }

  if (editing)
    return (
      <ChangeAddress
        current={address}
        hasPassword={account.data?.has_password ?? true}
        onCancel={() => setEditing(false)}
        onSent={(email) => {
          setChangedTo(email);
          setEditing(false);
          setCode('');
          verify.reset();
          resendCode.reset();
          restartCountdown();
        }}
      />
    );

  // Not while a code is being checked (the button is disabled then): the reset would detach the check,
  // and its success (the session read again, on to the deck) would never run.
  function resend() {
    check.reset();
    restartCountdown();
    resendCode.mutate();
  }

  return (
    <div className="card auth">
      <h1>{t('app.verify.title')}</h1>
      <p className="muted">{t('app.verify.subtitle')}</p>
      {address && <SentTo address={address} busy={busy} onChange={() => setEditing(true)} />}
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
      {/* A corrected address gets its next code through "Change e-mail" again (the change sends it). */}
      <button
        type="button"
        className="button secondary block"
        disabled={secondsLeft > 0 || busy || changedTo !== null}
        onClick={resend}
      >
        {secondsLeft > 0 ? t('app.verify.resendIn', { seconds: secondsLeft }) : t('app.verify.resend')}
      </button>
    </div>
  );
}
