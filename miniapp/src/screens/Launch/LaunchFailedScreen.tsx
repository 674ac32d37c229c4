import { useTranslation } from 'react-i18next';
import { usePublicConfig } from '../../api/queries/config.ts';
import type { LaunchFailure } from '../../platform/index.ts';
import { platform } from '../../platform/index.ts';

/**
 * Inside Telegram, when the launch data did not sign the user in (too old, not signed by our bot, absent,
 * or the server did not answer): what happened, and one way on: reopening the Mini App through the bot,
 * which hands it fresh launch data. Never an e-mail form: inside Telegram there is no other way in.
 */
export default function LaunchFailedScreen({ failure }: { failure: LaunchFailure }) {
  const { t } = useTranslation();
  const bot = usePublicConfig()?.bot_username ?? null;
  return (
    <section className="state state-empty launch-failed" aria-labelledby="launch-failed-title">
      <img src="/favicon.svg" alt="" width="56" height="56" />
      <h1 id="launch-failed-title" className="state-title">
        {t('app.launch.title')}
      </h1>
      <p>{t(`app.launch.${failure}`)}</p>
      <button
        type="button"
        className="button large"
        disabled={bot === null}
        // `?startapp` with no value opens the bot's main Mini App with fresh launch data.
        onClick={() => bot && platform().openTelegramLink(`https://t.me/${encodeURIComponent(bot)}?startapp`)}
      >
        {t('app.launch.reopen')}
      </button>
    </section>
  );
}
