import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorLine } from '../../components/States.tsx';
import { disablePush, enablePush, pushSubscribed, pushSupported, type PushFailure } from '../../lib/webPush.ts';
import { platform } from '../../platform/index.ts';

/**
 * "Notifications in this browser": Web Push for the web site (the bot brings them inside Telegram). Per
 * browser, unlike the server's switches: it is on where this browser holds a subscription the server knows.
 */
export function PushSwitch({ hasProfile }: { hasProfile: boolean }) {
  const { t } = useTranslation();
  const [on, setOn] = useState<boolean | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<PushFailure | null>(null);
  const shown = platform().kind === 'web' && pushSupported();

  useEffect(() => {
    if (!shown) return;
    let current = true;
    void pushSubscribed().then((subscribed) => current && setOn(subscribed));
    return () => {
      current = false;
    };
  }, [shown]);

  if (!shown) return null;
  const denied = failure === 'denied' || Notification.permission === 'denied';

  async function flip(value: boolean) {
    setBusy(true);
    setFailure(null);
    try {
      if (value) {
        const failed = await enablePush();
        setFailure(failed);
        setOn(failed === null);
      } else {
        await disablePush();
        setOn(false);
      }
    } catch {
      setFailure('failed');
    } finally {
      setBusy(false);
    }
  }

  const usable = hasProfile && on !== undefined && !busy && !denied;
  return (
    <>
      <label className={`row switch-row${usable ? '' : ' disabled'}`}>
        <span>
          {t('app.menu.pushNotifications')}
          <small className="muted block">
            {!hasProfile
              ? t('app.menu.needsProfile')
              : denied
                ? t('app.menu.pushNotificationsDenied')
                : t('app.menu.pushNotificationsHint')}
          </small>
        </span>
        <input
          type="checkbox"
          role="switch"
          className="switch"
          data-setting="push"
          disabled={!usable}
          checked={on === true && !denied}
          onChange={(e) => void flip(e.target.checked)}
        />
      </label>
      {failure === 'failed' || failure === 'unsupported' ? (
        <ErrorLine message={t('app.menu.pushNotificationsFailed')} />
      ) : null}
    </>
  );
}
