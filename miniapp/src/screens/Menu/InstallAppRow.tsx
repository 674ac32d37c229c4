import { useTranslation } from 'react-i18next';
import { promptInstall, useInstallOffered } from '../../lib/installPrompt.ts';

/** The menu's "Install the app" entry, only while the browser offers to install the site (issue 39). */
export function InstallAppRow() {
  const { t } = useTranslation();
  if (!useInstallOffered()) return null;
  return (
    <button type="button" className="row link-row" onClick={() => void promptInstall().catch(() => undefined)}>
      {t('app.menu.install')}
    </button>
  );
}
