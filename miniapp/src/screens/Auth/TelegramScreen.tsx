import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { usePublicConfig } from '../../api/queries/config.ts';
import { EmptyState, Loading } from '../../components/States.tsx';
import { readStored, storageKeys } from '../../lib/storage.ts';
import { platform } from '../../platform/index.ts';
import { useSession } from '../../session/SessionProvider.tsx';

/**
 * `/telegram`: the Mini App's entry. Inside Telegram it signs in with the init data and goes to /search;
 * in a plain browser it explains that the page is meant to be opened from the bot, and links to the bot
 * when the site has one (BOT_USERNAME, from /api/config).
 */
export default function TelegramScreen() {
  const { t } = useTranslation();
  const { refresh, adopt } = useSession();
  const bot = usePublicConfig()?.bot_username ?? null;
  const [state, setState] = useState<'working' | 'done' | 'failed'>(
    platform().kind === 'telegram' ? 'working' : 'failed',
  );
  useEffect(() => {
    if (platform().kind !== 'telegram') return;
    void (async () => {
      if (readStored(storageKeys.jwtToken) !== null) {
        await refresh();
        setState('done');
        return;
      }
      // The sign-in answers the user: nothing to fetch after it.
      const signedIn = await platform().signIn();
      if (signedIn && 'user' in signedIn) adopt(signedIn.user);
      setState(signedIn && 'user' in signedIn ? 'done' : 'failed');
    })();
  }, [adopt, refresh]);
  if (state === 'working') return <Loading />;
  if (state === 'done') return <Navigate to="/search" replace />;
  return (
    <EmptyState title={t('app.telegram.title')}>
      <p>{t('app.telegram.openFromBot')}</p>
      {bot && (
        <a
          className="button large"
          href={`https://t.me/${encodeURIComponent(bot)}`}
          onClick={(event) => {
            // Inside Telegram the link opens the bot's chat without leaving Telegram.
            if (platform().kind !== 'telegram') return;
            event.preventDefault();
            platform().openTelegramLink(`https://t.me/${encodeURIComponent(bot)}`);
          }}
        >
          {t('app.telegram.openBot')}
        </a>
      )}
    </EmptyState>
  );
}
