import type { Api, InlineKeyboard } from 'grammy';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { defaultLanguage, translatorFor, type Language } from '../locales/index.ts';
import type { AdminService } from '../server/features/admin/adminService.ts';
import { reportAlert } from './features/admin.ts';
import type { Logger } from '../server/logger.ts';

/** ADMIN_TELEGRAM_IDS: Telegram user ids, separated by commas or spaces; anything else is ignored. */
export function parseAdminIds(value: string | undefined): number[] {
  return (value ?? '')
    .split(/[\s,]+/)
    .filter((v) => /^\d{1,15}$/.test(v))
    .map(Number);
}

/**
 * Sends one message to every admin, each in the language of their own Iskra account (Russian when they
 * have none). One admin who blocked the bot does not keep the others from hearing; answers how many did.
 */
export function adminMessenger(api: Api, adminIds: readonly number[], db: Kysely<Database>, logger: Logger) {
  return async (text: (language: Language) => string, keyboard?: (language: Language) => InlineKeyboard): Promise<number> => {
    if (adminIds.length === 0) return 0;
    const rows = await db
      .selectFrom('users')
      .select(['telegram_id', 'language'])
      .where(
        'telegram_id',
        'in',
        adminIds.map((id) => String(id)),
      )
      .execute();
    const languages = new Map(rows.map((r) => [r.telegram_id, r.language]));
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
