import { Composer } from 'grammy';
import { translatorFor } from '../../locales/index.ts';
import type { BotContext, BotUsers } from '../context.ts';

/**
 * Runs first: finds or creates the sender's account (the same one the Mini App reaches) and gives the
 * handlers a translator in the account's language. The bot lives in private chats (Mini App buttons work
 * only there): group and channel updates, updates without a human sender and banned users stop here.
 */
export function accountFeature(users: BotUsers): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  feature.use(async (ctx, next) => {
    const from = ctx.from;
    if (!from || from.is_bot || ctx.chat?.type !== 'private') return;
    const account = await users.ensure({ id: from.id, username: from.username, languageCode: from.language_code });
    if (account.banned) return;
    ctx.account = { userId: account.userId, language: account.language };
    ctx.t = translatorFor(account.language);
    await next();
  });
  return feature;
}
