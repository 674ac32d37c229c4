import type { Kysely } from 'kysely';
import type { Database, UserId } from '../../../db/schema.ts';
import { AppError, notFound } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import { reencodeForCropping } from '../photos/index.ts';
import { hour, type RateCounter } from '../rateLimits/index.ts';
import { BotApiPhotos, BotApiUnavailableError } from './botApiPhotos.ts';
import { findTelegramId } from './repository.ts';

const noPhoto = () => notFound('no_telegram_photo', 'No Telegram profile photo to use');
/**
 * Each read costs two Bot API calls and a re-encode, and Telegram limits the bot as a whole: the wizard offers
 * the photo once or twice a session, so 20 an hour is far above a person's use and stops a loop or a script.
 */
export const telegramPhotosPerHour = 20;

const unavailable = () =>
  new AppError(503, 'telegram_unavailable', 'Telegram did not answer. Please try again shortly.', {
    retryAfterSeconds: 5,
  });

/**
 * The signed-in user's own Telegram profile photo, offered by the profile wizard (issue 39). Read through the
 * Bot API, checked and re-encoded like an upload (no metadata leaves), and handed back for the user to crop;
 * the cropped photo is then uploaded like any other. Only ever the caller's own photo.
 */
export class TelegramPhotoService {
  private readonly botApi: BotApiPhotos | null;

  constructor(
    private readonly db: Kysely<Database>,
    bot: { token: string; apiRoot: string } | undefined,
    private readonly logger: Logger,
    private readonly rates: RateCounter,
  ) {
    this.botApi = bot ? new BotApiPhotos(bot.token, bot.apiRoot) : null;
  }

  async ownPhoto(userId: UserId): Promise<Buffer> {
    const telegramId = await findTelegramId(this.db, userId);
    if (!this.botApi || telegramId === null) throw noPhoto();
    await this.rates.hit(
      `telegram_photo:${userId}`,
      [{ seconds: hour, limit: telegramPhotosPerHour }],
      'telegram_photo_rate_limited',
      'Too many tries. Please try again in an hour.',
    );
    let bytes: Buffer | null;
    try {
      bytes = await this.botApi.currentPhoto(telegramId);
    } catch (error) {
      if (!(error instanceof BotApiUnavailableError)) throw error;
      this.logger.warn({ reason: error.message }, 'Telegram profile photo unavailable');
      throw unavailable();
    }
    if (!bytes) throw noPhoto();
    return reencodeForCropping(bytes);
  }
}
