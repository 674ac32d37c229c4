import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSwitcher } from '../../components/LanguageSwitcher.tsx';
import { isDarkApplied, setDarkMode } from '../../lib/theme.ts';
import { PushSwitch } from './PushSwitch.tsx';
import { ServerSwitches } from './ServerSwitches.tsx';

/** Dark mode and language (kept in the browser), and for a member the switches kept on the server. */
export function SettingsSection({ signedIn, hasProfile }: { signedIn: boolean; hasProfile: boolean }) {
  const { t } = useTranslation();
  const [dark, setDark] = useState(isDarkApplied);
  return (
    <section className="card" aria-labelledby="settings-title">
      <h2 id="settings-title">{t('app.menu.settings')}</h2>
      <label className="row switch-row">
        <span>{t('app.menu.darkMode')}</span>
        <input
          type="checkbox"
          role="switch"
          className="switch"
          checked={dark}
          onChange={(e) => {
            setDark(e.target.checked);
            setDarkMode(e.target.checked);
          }}
        />
      </label>
      <div className="row">
        <span>{t('app.language.label')}</span>
        <LanguageSwitcher />
      </div>
      {signedIn && <ServerSwitches hasProfile={hasProfile} />}
      {signedIn && <PushSwitch hasProfile={hasProfile} />}
    </section>
  );
}
