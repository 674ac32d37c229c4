import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSaveSettings, useSettings } from '../../api/queries/settings.ts';
import { ErrorLine } from '../../components/States.tsx';
import type { TranslationKey } from '../../i18n.ts';
import { errorText } from '../../lib/errorText.ts';
import { platform } from '../../platform/index.ts';

type Key = 'notifications' | 'email_notifications' | 'private_mode' | 'show_activity';
const switches: { key: Key; label: TranslationKey; hint: TranslationKey }[] = [
  { key: 'notifications', label: 'app.menu.notifications', hint: 'app.menu.notificationsHint' },
  { key: 'email_notifications', label: 'app.menu.emailNotifications', hint: 'app.menu.emailNotificationsHint' },
  { key: 'private_mode', label: 'app.menu.privateMode', hint: 'app.menu.privateModeHint' },
  { key: 'show_activity', label: 'app.menu.showActivity', hint: 'app.menu.showActivityHint' },
];

/**
 * Notifications (the bot's and the e-mails, each its own switch), private mode and whether others see how
 * recently one was active live on the server (the bot and the search honour them), so each flip
 * is saved at once; the switch shows the new state while saving (set in the same event, so the checkbox
 * never flips back first) and springs back if the server refuses.
 */
export function ServerSwitches({ hasProfile }: { hasProfile: boolean }) {
  const { t } = useTranslation();
  const settings = useSettings(hasProfile);
  const save = useSaveSettings();
  const failure = save.error ?? settings.error;
  /** Flipped and still being saved: shown instead of what the server last said. */
  const [pending, setPending] = useState<Partial<Record<Key, boolean>>>({});

  function flip(key: Key, value: boolean) {
    // Inside Telegram the bot brings the notifications: one that may not write to the user yet asks now.
    if (key === 'notifications' && value) void platform().requestWriteAccess();
    setPending((shown) => ({ ...shown, [key]: value }));
    void save
      .mutateAsync({ [key]: value })
      .catch(() => undefined)
      .finally(() => setPending(({ [key]: _saved, ...rest }) => rest));
  }

  return (
    <>
      {switches.map(({ key, label, hint }) => {
        // The bot's notifications need a Telegram account to reach: without one (a web-only account) the
        // switch is shown off and unusable, with the way to link Telegram, rather than on and doing nothing.
        const needsTelegram = key === 'notifications' && settings.data?.telegram_linked === false;
        const usable = hasProfile && settings.data !== undefined && !needsTelegram;
        const shownHint = !hasProfile
          ? t('app.menu.needsProfile')
          : needsTelegram
            ? t('app.menu.notificationsNeedTelegram')
            : t(hint);
        return (
          <Fragment key={key}>
            <label className={`row switch-row${usable ? '' : ' disabled'}`}>
              <span>
                {t(label)}
                <small className="muted block">{shownHint}</small>
              </span>
              <input
                type="checkbox"
                role="switch"
                className="switch"
                data-setting={key}
                disabled={!usable || pending[key] !== undefined}
                checked={needsTelegram ? false : (pending[key] ?? settings.data?.[key] ?? false)}
                onChange={(e) => flip(key, e.target.checked)}
              />
            </label>
            {needsTelegram && (
              <Link to="/account" className="row link-row">
                {t('app.menu.linkTelegram')}
              </Link>
            )}
          </Fragment>
        );
      })}
      {failure && <ErrorLine message={errorText(t, failure, 'app.menu.settingsFailed')} />}
    </>
  );
}
