import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useRequestEmailChange } from '../../api/queries/account.ts';
import { ErrorLine } from '../../components/States.tsx';
import { errorText } from '../../lib/errorText.ts';
import './VerifyAddress.css';

/** `/verify`'s line saying where the code went, with the way to correct a mistyped address. */
export function SentTo({ address, busy, onChange }: { address: string; busy: boolean; onChange: () => void }) {
  const { t } = useTranslation();
  return (
    <p className="verify-address">
      {t('app.verify.sentTo')} <strong>{address}</strong>{' '}
      <button type="button" className="text-button" onClick={onChange} disabled={busy}>
        {t('app.verify.changeEmail')}
      </button>
    </p>
  );
}

/** The address corrected: a code goes to the new one (the account's password is asked when it has one). */
export function ChangeAddress({
  current,
  hasPassword,
  onCancel,
  onSent,
}: {
  current: string | null;
  hasPassword: boolean;
  onCancel: () => void;
  onSent: (email: string) => void;
}) {
  const { t } = useTranslation();
  const [email, setEmail] = useState(current ?? '');
  const [password, setPassword] = useState('');
  const request = useRequestEmailChange();

  function submit(event: SyntheticEvent) {
    event.preventDefault();
    const address = email.trim().toLowerCase();
    request.mutate(
      { email: address, ...(hasPassword ? { current_password: password } : {}) },
      { onSuccess: () => onSent(address) },
    );
  }

  return (
    <div className="card auth">
      <h1>{t('app.verify.changeTitle')}</h1>
      <p className="muted">{t('app.verify.changeText')}</p>
      <form onSubmit={submit}>
        <label className="field">
          <span>{t('app.verify.newEmail')}</span>
          <input type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        {hasPassword && (
          <label className="field">
            <span>{t('app.verify.password')}</span>
            <input
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </label>
        )}
        <ErrorLine message={request.error ? errorText(t, request.error, 'app.verify.changeFailed') : null} />
        <button type="submit" className="button large block" disabled={request.isPending || !email.trim()}>
          {request.isPending ? t('app.common.wait') : t('app.verify.sendToNew')}
        </button>
      </form>
      <button type="button" className="button secondary block" onClick={onCancel} disabled={request.isPending}>
        {t('app.matches.cancel')}
      </button>
    </div>
  );
}
