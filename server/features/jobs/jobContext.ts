import type { DatabaseHandle } from '../../../db/client.ts';
import type { Services } from '../../services.ts';
import type { JobContext } from './job.ts';

/**
 * The jobs' context from the services the composition root built (server/main.ts, scripts/job.ts): the
 * same premium service, mailer and photo store the app uses. `tellAdmins` comes from the bot, which the
 * server never imports: whoever launched the bot passes it in.
 */
export function jobContextFor(
  handle: DatabaseHandle,
  services: Pick<Services, 'clock' | 'logger' | 'photoStore' | 'premium' | 'mailer'>,
  settings: { dataDir: string; publicUrl: string },
  tellAdmins?: JobContext['tellAdmins'],
): JobContext {
  return {
    db: handle.db,
    dialect: handle.dialect,
    clock: services.clock,
    logger: services.logger,
    dataDir: settings.dataDir,
    photos: services.photoStore,
    sqlite: handle.sqlite,
    mailer: services.mailer,
    publicUrl: settings.publicUrl,
    premium: services.premium,
    tellAdmins,
  };
}
