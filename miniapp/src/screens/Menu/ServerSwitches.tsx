import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SettingsResponse } from '../../../../server/contract/discovery.ts';
import { settingsQueries } from '../../api/queries/settings.ts';
import { ErrorLine } from '../../components/States.tsx';
import { errorText } from '../../lib/errorText.ts';

type Key = 'notifications' | 'private_mode';
const switches: { key: Key; label: string; hint: string }[] = [
  { key: 'notifications', label: 'app.menu.notifications', hint: 'app.menu.notificationsHint' },
  { key: 'private_mode', label: 'app.menu.privateMode', hint: 'app.menu.privateModeHint' },
];

/**
 * Notifications and private mode live on the server (the bot and the search honour them), so each flip
 * is saved at once; the switch shows the new state while saving and springs back if the server refuses.
 */
export function ServerSwitches({ hasProfile }: { hasProfile: boolean }) {
  const { t } = useTranslation();
  const [settings, setSettings] = useState<SettingsResponse | null>(null);
  const [saving, setSaving] = useState<Key | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!hasProfile) return;
    let live = true;
    settingsQueries.load().then(
      (loaded) => live && setSettings(loaded),
      (e: unknown) => live && setError(errorText(t, e, 'app.menu.settingsFailed')),
    );
    return () => {
      live = false;
    };
  }, [hasProfile, t]);

  async function flip(key: Key, value: boolean) {
    if (!settings) return;
    const before = settings;
    setSettings({ ...settings, [key]: value });
    setSaving(key);
    setError(null);
    try {
      setSettings(await settingsQueries.save({ [key]: value }));
    } catch (e) {
      setSettings(before);
      setError(errorText(t, e, 'app.menu.settingsFailed'));
    } finally {
      setSaving(null);
    }
  }

  return (
    <>
      {switches.map(({ key, label, hint }) => {
        const usable = hasProfile && settings !== null;
        return (
          <label key={key} className={`row switch-row${usable ? '' : ' disabled'}`}>
            <span>
              {t(label)}
              <small className="muted block">{hasProfile ? t(hint) : t('app.menu.needsProfile')}</small>
            </span>
            <input
              type="checkbox"
              role="switch"
              className="switch"
              data-setting={key}
              disabled={!usable || saving === key}
              checked={settings?.[key] ?? false}
              onChange={(e) => void flip(key, e.target.checked)}
            />
          </label>
        );
      })}
      {error && <ErrorLine message={error} />}
    </>
  );
}
