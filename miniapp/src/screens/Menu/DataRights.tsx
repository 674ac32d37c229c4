import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { dataRightsQueries } from '../../api/queries/dataRights.ts';
import { BottomSheet } from '../../components/BottomSheet.tsx';
import { ErrorLine } from '../../components/States.tsx';
import { errorText } from '../../lib/errorText.ts';
import { writeStored, storageKeys } from '../../lib/storage.ts';
import { useSession } from '../../session/SessionProvider.tsx';

/**
 * The user's data rights in the menu: download everything as one JSON file, and delete the account after
 * confirming with the password (or, without one, a recent sign-in).
 */
export function DataRights() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { refresh } = useSession();
  const [confirming, setConfirming] = useState(false);
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [exportError, setExportError] = useState<string | null>(null);

  async function download() {
    setExportError(null);
    try {
      const data = await dataRightsQueries.export();
      const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = 'iskra-my-data.json';
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (failure) {
      setExportError(errorText(t, failure, 'app.dataRights.exportFailed'));
    }
  }

  async function remove() {
    setBusy(true);
    setError(null);
    try {
      await dataRightsQueries.deleteAccount(password);
      writeStored(storageKeys.jwtToken, null);
      await refresh(() => void navigate('/', { replace: true }));
    } catch (failure) {
      setBusy(false);
      setError(errorText(t, failure, 'app.dataRights.deleteFailed'));
    }
  }

  return (
    <section className="card links" aria-labelledby="data-title">
      <h2 id="data-title" className="visually-hidden">
        {t('app.dataRights.title')}
      </h2>
      <button type="button" className="row link-row" onClick={() => void download()}>
        {t('app.dataRights.export')}
      </button>
      <ErrorLine message={exportError} />
      <button type="button" className="row link-row danger" onClick={() => setConfirming(true)}>
        {t('app.dataRights.delete')}
      </button>
      <BottomSheet open={confirming} title={t('app.dataRights.deleteTitle')} onClose={() => setConfirming(false)}>
        <form
          className="sheet-actions"
          onSubmit={(e) => {
            e.preventDefault();
            void remove();
          }}
        >
          <p>{t('app.dataRights.deleteText')}</p>
          <label className="field">
            <span>{t('app.dataRights.password')}</span>
            <input type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
          </label>
          <p className="hint">{t('app.dataRights.passwordHint')}</p>
          <ErrorLine message={error} />
          <button type="submit" className="button block danger" disabled={busy}>
            {busy ? t('app.common.wait') : t('app.dataRights.deleteConfirm')}
          </button>
        </form>
      </BottomSheet>
    </section>
  );
}
