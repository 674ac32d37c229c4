import { useTranslation } from 'react-i18next';
import { usePublicConfig } from '../../api/queries/config.ts';
import './OpenInTelegram.css';

/** The landing's "Open in Telegram" (issue 39): the Mini App through the bot, when the site has one (BOT_USERNAME). */
export function OpenInTelegram() {
  const { t } = useTranslation();
  const bot = usePublicConfig()?.bot_username;
  if (!bot) return null;
  return (
    <a
      className="button large open-in-telegram"
      href={`https://t.me/${encodeURIComponent(bot)}?startapp`}
      target="_blank"
      rel="noreferrer"
    >
      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
        <path
          fill="currentColor"
          d="M21.5 4.2 18.4 19c-.2 1-.9 1.3-1.7.8l-4.7-3.5-2.3 2.2c-.3.3-.5.5-1 .5l.3-4.8 8.8-7.9c.4-.3-.1-.5-.6-.2L6.3 12.9l-4.7-1.5c-1-.3-1-1 .2-1.5L20.2 2.9c.9-.3 1.6.2 1.3 1.3z"
        />
      </svg>
      {t('app.landing.openTelegram')}
    </a>
  );
}
