import type { Api, InlineKeyboard } from 'grammy';
import { defaultLanguage, translatorFor, type Language } from '../locales/index.ts';
import type { AdminService } from '../server/features/admin/index.ts';
import { reportAlert } from './features/admin.ts';
import type { TelegramUserService } from '../server/features/telegram/index.ts';
import type { Logger } from '../server/logger.ts';

/**
 * Sends one message to every admin, each in the language of their own Iskra account (Russian when they
 * have none). One admin who blocked the bot does not keep the others from hearing; answers how many did.
 */
export function adminMessenger(
  api: Api,
  adminIds: readonly number[],
  users: Pick<TelegramUserService, 'languagesOf'>,
  logger: Logger,
) {
  return async (
    text: (language: Language) => string,
    keyboard?: (language: Language) => InlineKeyboard,
  ): Promise<number> => {
    if (adminIds.length === 0) return 0;
    const languages = await users.languagesOf(adminIds);
    let reached = 0;
    for (const id of adminIds) {
      try {
        const language = languages.get(String(id)) ?? defaultLanguage;
        await api.sendMessage(id, text(language), keyboard ? { reply_markup: keyboard(language) } : {});
        reached += 1;
      } catch (error) {
        logger.warn({ err: error, admin: id }, 'admin message not delivered');
      }
    }
    return reached;
  };
}

/** Tells the admins of a new report, with its Ban and Dismiss buttons (wired from main.ts). */
export function reportAlerter(tell: ReturnType<typeof adminMessenger>, admin: AdminService, logger: Logger) {
  return (reportId: number): void => {
    void (async () => {
      const report = await admin.report(reportId);
      if (!report) return;
      await tell(
        (language) => reportAlert(translatorFor(language), report).text,
        (language) => reportAlert(translatorFor(language), report).keyboard,
      );
    })().catch((error: unknown) => logger.warn({ err: error, reportId }, 'report alert not sent'));
  };
}
