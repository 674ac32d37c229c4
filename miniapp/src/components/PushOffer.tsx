import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { enablePush, pushSupported } from '../lib/webPush.ts';
import { platform } from '../platform/index.ts';

/**
 * The moment to ask for notifications is right after a match, when the person can see why (issue 39: never on
 * load). Offered on the web only, once the browser can push and has not been asked yet; a tap asks.
 */
export function PushOffer() {
  const { t } = useTranslation();
  const [state, setState] = useState<'offer' | 'asking' | 'done'>('offer');
  if (platform().kind !== 'web' || !pushSupported() || Notification.permission !== 'default' || state === 'done')
    return null;
  return (
    <button
      type="button"
      className="text-button push-offer"
      disabled={state === 'asking'}
      onClick={() => {
        setState('asking');
        void enablePush().finally(() => setState('done'));
      }}
    >
      {t('app.matchOverlay.notifyMe')}
    </button>
  );
}
