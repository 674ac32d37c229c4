import type { Api } from 'grammy';
import type { TFunction } from 'i18next';
import { languages, translatorFor } from '../locales/index.ts';
import { shortcutCommands } from './features/shortcuts.ts';

/** The chat menu button opens the Mini App; per chat it speaks the user's language. */
export async function setChatMenu(api: Api, publicUrl: string, t: TFunction, chatId?: number): Promise<void> {
  await api.setChatMenuButton({
    ...(chatId !== undefined ? { chat_id: chatId } : {}),
    menu_button: { type: 'web_app', text: t('bot.menu_button'), web_app: { url: publicUrl } },
  });
}

/**
 * Once per deployment (at polling start, or by `npm run bot:set-webhook`): the command lists in both
 * languages (the bot's menu, with /likes and /premium opening those screens of the Mini App) (Russian is the default for everyone else) and the default menu button.
 */
export async function configureBot(api: Api, publicUrl: string): Promise<void> {
  for (const language of languages) {
    const t = translatorFor(language);
    const commands = (['start', ...shortcutCommands, 'language', 'help'] as const).map((command) => ({
      command,
      description: t(`bot.commands.${command}`),
    }));
    await api.setMyCommands(commands, language === 'ru' ? {} : { language_code: language });
  }
  await setChatMenu(api, publicUrl, translatorFor('ru'));
}
