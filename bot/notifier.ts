import { GrammyError, InlineKeyboard, type Api } from 'grammy';
import { genderContext } from '../locales/genderContext.ts';
import { translatorFor } from '../locales/index.ts';
import { changeText, changeTime } from '../server/features/accountAlerts/index.ts';
import {
  type Notification,
  type Notifier,
  PermanentNotificationError,
} from '../server/features/notifications/index.ts';
import { miniAppUrl } from './miniAppUrl.ts';

function render(n: Notification): { text: string; button: string; target: string } {
  const t = translatorFor(n.language);
  switch (n.kind) {
    case 'premium_ending': {
      const date = new Intl.DateTimeFormat(n.language, { day: 'numeric', month: 'long', timeZone: 'UTC' }).format(
        new Date(n.until),
      );
      return {
        text: t('bot.notify.premium_ending', { date }),
        button: t('bot.notify.open_subscription'),
        target: 'premium',
      };
    }
    case 'match':
      return {
        // Said to the recipient ("Напишите первой"): their gender.
        text: t('bot.notify.match', { name: n.name, context: genderContext(n.genders?.reader) }),
        button: t('bot.notify.open_matches'),
        target: n.profileId === undefined ? 'matches' : `match_${n.profileId}`,
      };
    case 'message':
      return {
        text: t('bot.notify.message', { name: n.name, preview: n.preview }),
        button: t('bot.notify.open_chat'),
        target: `chat_${n.conversationId}`,
      };
    case 'like':
      // Of the liker ("лайкнула вас"): their gender.
      return {
        // Wrote with the like: said without the words, which are for the app.
        text: t(n.wrote ? 'bot.notify.like_message' : 'bot.notify.like', {
          name: n.name,
          context: genderContext(n.genders?.other),
        }),
        button: t('bot.notify.open_likes'),
        target: 'likes',
      };
    case 'account_change': {
      const what = changeText(n.language, n.change);
      return {
        text: t('bot.notify.account_change', { what, time: changeTime(n.language, new Date(n.at)) }),
        button: t('bot.notify.open_account'),
        target: 'account',
      };
    }
  }
}

/**
 * Match, message, like, renewal and account change notifications through the bot, in the recipient's language, with a button that
 * opens the Mini App where the news is (start parameters, see the README): the chat (`chat_<id>`), the
 * match's profile (`match_<profileId>`), the likers (`likes`), the subscription for a renewal reminder (`premium`), or Menu → Account for an account change (`account`).
 */
export function createTelegramNotifier(api: Api, publicUrl: string): Notifier {
  return {
    async send(n: Notification) {
      const { text, button, target } = render(n);
      const keyboard = new InlineKeyboard().webApp(button, miniAppUrl(publicUrl, target));
      try {
        await api.sendMessage(Number(n.telegramId), text, {
          reply_markup: keyboard,
          link_preview_options: { is_disabled: true },
        });
      } catch (error) {
        // Blocked the bot or deleted the account: retrying cannot help (the 403 transformer marks them).
        if (error instanceof GrammyError && error.error_code === 403)
          throw new PermanentNotificationError(error.description);
        throw error;
      }
    },
  };
}
