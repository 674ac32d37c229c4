import path from 'node:path';
import type { Api } from 'grammy';
import { adminMessenger, parseAdminIds } from '../../../bot/admins.ts';
import type { DatabaseHandle } from '../../../db/client.ts';
import { systemClock, type Clock } from '../../clock.ts';
import type { Logger } from '../../logger.ts';
import { PhotoStore } from '../photos/photoStore.ts';
import type { JobContext } from './job.ts';
import type { Env } from '../../env.ts';
import { PremiumService } from '../premium/service.ts';
import { createLogMailer, createSmtpMailer } from '../../mail/mailer.ts';
import { yookassaFromEnv } from '../premium/yookassaSetup.ts';

/** The jobs' context as the server and `npm run job` build it. */
export function jobContextFor(handle: DatabaseHandle, env: Env, logger: Logger, api: Api | undefined, clock: Clock = systemClock): JobContext {
  const settings = { dataDir: env.DATA_DIR, adminTelegramIds: env.ADMIN_TELEGRAM_IDS };
  const yookassa = yookassaFromEnv(env);
  return {
    db: handle.db,
    dialect: handle.dialect,
    clock,
    logger,
    dataDir: settings.dataDir,
    photos: new PhotoStore(path.join(settings.dataDir, 'uploads')),
    sqlite: handle.sqlite,
    mailer: env.SMTP_URL ? createSmtpMailer(env.SMTP_URL, env.MAIL_FROM) : createLogMailer(logger),
    publicUrl: env.PUBLIC_URL,
    premium: new PremiumService(handle.db, handle.dialect, clock, env.SESSION_SECRET, env.PAYMENT_PROVIDER === 'test', { yookassa, logger }),
    tellAdmins: api ? adminMessenger(api, parseAdminIds(settings.adminTelegramIds), handle.db, logger) : undefined,
  };
}
