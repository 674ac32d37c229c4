/**
 * Admin tools on the server's own database (the same DATABASE_URL / DATA_DIR as the server):
 *   npm run admin -- reports                 open reports: the strongest weighted evidence first, then oldest
 *   npm run admin -- dismiss <reportId>      close a report as unfounded (the profile returns to search)
 *   npm run admin -- ban-report <reportId>   ban the reported user
 *   npm run admin -- ban <userId|email>      ban: sessions end at once, the profile is hidden
 *   npm run admin -- unban <userId|email>
 *   npm run admin -- grant-premium <userId|email> <days>   premium as a gift (also: grant)
 *   npm run admin -- refund <paymentId>      refund (Stars through the bot, rubles through YooKassa) and take its days back
 *   npm run admin -- flags                   open moderation flags
 *   npm run admin -- resolve-flag <flagId>
 *   npm run admin -- stats [days]            numbers for the last day (or days)
 * Every change is written to the audit log (admin_actions) as `cli`, in the change's own transaction.
 * Prints one JSON object per line; exits 64 on a usage error, 1 when the command was refused.
 */
import { Api } from 'grammy';
import { openDatabase, toolLockWaitMs } from '../db/client.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { servicesFromEnv } from '../server/composition.ts';
import { loadEnv } from '../server/env.ts';
import { AppError } from '../server/errors.ts';
import { starsApiFor } from '../server/features/premium/stars.ts';
import { createLogger } from '../server/logger.ts';

const [command = '', ...args] = process.argv.slice(2);
const usage = () => {
  console.error(
    'usage: npm run admin -- reports | dismiss <id> | ban-report <id> | ban <user> | unban <user> | grant-premium <user> <days> | refund <paymentId> | flags | resolve-flag <id> | stats [days]',
  );
  process.exit(64);
};
const idArg = (value: string | undefined): number => {
  if (!value || !/^\d{1,12}$/.test(value)) usage();
  return Number(value);
};

const env = loadEnv();
const handle = openDatabase({
  url: env.DATABASE_URL,
  dataDir: env.DATA_DIR,
  searchPath: env.DATABASE_SCHEMA,
  lockWaitMs: toolLockWaitMs,
});
await migrateToLatest(handle.db, handle.schema);
// Refunds go through the same provider settings as the server's: BOT_TOKEN and TELEGRAM_API_ROOT for Stars,
// PAYMENT_PROVIDER=yookassa with YOOKASSA_SHOP_ID, YOOKASSA_SECRET_KEY and YOOKASSA_API_URL for rubles.
const { services } = servicesFromEnv(env, handle, createLogger(env.LOG_LEVEL, process.stderr), {
  stars: env.BOT_TOKEN ? starsApiFor(new Api(env.BOT_TOKEN, { apiRoot: env.TELEGRAM_API_ROOT })) : undefined,
});
const admin = services.admin;
const print = (value: unknown) => console.log(JSON.stringify(value));

try {
  switch (command) {
    case 'reports':
      for (const report of await admin.openReports()) print(report);
      break;
    case 'dismiss':
      print({ dismissed: await admin.dismissReport(idArg(args[0]), 'cli') });
      break;
    case 'ban-report':
      print({ banned: await admin.banFromReport(idArg(args[0]), 'cli') });
      break;
    case 'ban':
    case 'unban': {
      if (!args[0]) usage();
      const userId = await admin.findUserId(args[0] ?? '');
      print(
        command === 'ban'
          ? { userId, banned: await admin.ban(userId, 'cli') }
          : { userId, unbanned: await admin.unban(userId, 'cli') },
      );
      break;
    }
    case 'grant':
    case 'grant-premium': {
      if (!args[0]) usage();
      const days = idArg(args[1]);
      if (days < 1 || days > 3660) usage();
      const userId = await admin.findUserId(args[0] ?? '');
      print({ userId, premiumUntil: await admin.grantPremium(userId, days, 'cli') });
      break;
    }
    case 'refund':
      print(await admin.refund(idArg(args[0]), 'cli'));
      break;
    case 'flags':
      for (const flag of await admin.openFlags()) print(flag);
      break;
    case 'resolve-flag':
      print({ resolved: await admin.resolveFlag(idArg(args[0]), 'cli') });
      break;
    case 'stats': {
      const days = args[0] ? idArg(args[0]) : 1;
      print(await admin.stats(new Date(Date.now() - days * 86_400_000)));
      break;
    }
    default:
      usage();
  }
} catch (error) {
  if (!(error instanceof AppError)) throw error;
  console.error(`${error.code}: ${error.message}`);
  process.exitCode = 1;
} finally {
  await handle.db.destroy();
}
