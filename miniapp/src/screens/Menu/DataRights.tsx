import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useDeleteAccount, useExportData } from '../../api/queries/dataRights.ts';
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
  const exportData = useExportData();
  const deleteAccount = useDeleteAccount();

  function download() {
    exportData.mutate(undefined, {
      onSuccess: (data) => {
        const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
        const link = document.createElement('a');
        link.href = url;
        link.download = 'iskra-my-data.json';
        link.click();
        setTimeout(() => URL.revokeObjectURL(url), 10_000);
      },
    });
  }

  // Cancel changes nothing: the typed password and any refusal go with the sheet.
  function cancel() {
    setConfirming(false);
    setPassword('');
    deleteAccount.reset();
  }

  function remove() {
    deleteAccount.mutate(password, {
      onSuccess: () => {
        writeStored(storageKeys.jwtToken, null);
        // The landing page says it is done (LandingScreen reads the state), so the tap does not end in silence.
        void refresh(() => void navigate('/', { replace: true, state: { accountDeleted: true } }));
      },
    });
  }

  return (
    <section className="card links" aria-labelledby="data-title">
      <h2 id="data-title" className="visually-hidden">
        {t('app.dataRights.title')}
      </h2>
      <button type="button" className="row link-row" onClick={download}>
        {t('app.dataRights.export')}
      </button>
      <ErrorLine message={exportData.error ? errorText(t, exportData.error, 'app.dataRights.exportFailed') : null} />
      <button type="button" className="row link-row danger" onClick={() => setConfirming(true)}>
        {t('app.dataRights.delete')}
      </button>
      <BottomSheet open={confirming} title={t('app.dataRights.deleteTitle')} onClose={cancel}>
        <form
          className="sheet-actions"
          onSubmit={(e) => {
            e.preventDefault();
            remove();
          }}
        >
          <p>{t('app.dataRights.deleteText')}</p>
          <label className="field">
            <span>{t('app.dataRights.password')}</span>
            <input
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </label>
          <p className="hint">{t('app.dataRights.passwordHint')}</p>
          <ErrorLine
            message={deleteAccount.error ? errorText(t, deleteAccount.error, 'app.dataRights.deleteFailed') : null}
          />
          {/* Deleted: still busy while the session ends and the app leaves for /. */}
          <button
            type="submit"
            className="button block danger"
            disabled={deleteAccount.isPending || deleteAccount.isSuccess}
          >
            {deleteAccount.isPending || deleteAccount.isSuccess
              ? t('app.common.wait')
              : t('app.dataRights.deleteConfirm')}
          </button>
          <button
            type="button"
            className="button secondary block"
            disabled={deleteAccount.isPending || deleteAccount.isSuccess}
            onClick={cancel}
          >
            {t('app.matches.cancel')}
          </button>
        </form>
      </BottomSheet>
    </section>
  );
}
