import { GrammyError, InlineKeyboard, type Api } from 'grammy';
import { translatorFor } from '../locales/index.ts';
import { PermanentNotificationError, type Notification, type Notifier } from '../server/features/notifications/worker.ts';
import { miniAppUrl } from './miniAppUrl.ts';

/**
 * Match and message notifications through the bot, in the recipient's language, with a button that opens
 * the Mini App on that chat (a `chat_<id>` start parameter) or on the matches.
 */
export function createTelegramNotifier(api: Api, publicUrl: string): Notifier {
  return {
    async send(n: Notification) {
      const t = translatorFor(n.language);
      const text = n.kind === 'match' ? t('bot.notify.match', { name: n.name }) : t('bot.notify.message', { name: n.name, preview: n.preview ?? '' });
      const target = n.kind === 'message' && n.conversationId !== undefined ? `chat_${n.conversationId}` : 'matches';
      const keyboard = new InlineKeyboard().webApp(t(n.kind === 'match' ? 'bot.notify.open_matches' : 'bot.notify.open_chat'), miniAppUrl(publicUrl, target));
      try {
        await api.sendMessage(Number(n.telegramId), text, { reply_markup: keyboard, link_preview_options: { is_disabled: true } });
      } catch (error) {
        // Blocked the bot or deleted the account: retrying cannot help (the 403 transformer marks them).
        if (error instanceof GrammyError && error.error_code === 403) throw new PermanentNotificationError(error.description);
        throw error;
      }
    },
  };
}
