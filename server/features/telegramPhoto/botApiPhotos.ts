import { z } from 'zod';
import { maxPhotoBytes } from '../photos/index.ts';

/** Telegram did not answer, or answered something we cannot use: the user may try again later. */
export class BotApiUnavailableError extends Error {}

const answer = <T extends z.ZodType>(result: T) => z.object({ ok: z.literal(true), result });
const photoSize = z.object({
  file_id: z.string(),
  width: z.number(),
  height: z.number(),
  file_size: z.number().optional(),
});
const userProfilePhotos = answer(z.object({ total_count: z.number(), photos: z.array(z.array(photoSize)) }));
const file = answer(
  z.object({ file_id: z.string(), file_size: z.number().optional(), file_path: z.string().optional() }),
);

/** Each Bot API call and the download: a slow Telegram must not hold the wizard's request for long. */
const callTimeoutMs = 10_000;

/**
 * The user's current Telegram profile photo through the Bot API (getUserProfilePhotos, then getFile and the
 * file download), from the configured API root (TELEGRAM_API_ROOT; tests point it at a local stand-in).
 * Null when the user has none or hides it from bots (Telegram then reports no photos).
 */
export class BotApiPhotos {
  constructor(
    private readonly token: string,
    private readonly apiRoot: string,
  ) {}

  async currentPhoto(telegramId: number): Promise<Buffer | null> {
    const photos = await this.call('getUserProfilePhotos', { user_id: telegramId, limit: 1 }, userProfilePhotos);
    const sizes = photos.result.photos[0] ?? [];
    // Telegram lists a photo's sizes smallest first; the largest is the one worth cropping.
    const largest = sizes.reduce<(typeof sizes)[number] | undefined>(
      (best, s) => (!best || s.width * s.height > best.width * best.height ? s : best),
      undefined,
    );
    if (!largest) return null;
    const found = await this.call('getFile', { file_id: largest.file_id }, file);
    const path = found.result.file_path;
    if (!path || (found.result.file_size ?? 0) > maxPhotoBytes) return null;
    return this.download(path);
  }

  private async call<T extends z.ZodType>(
    method: string,
    body: Record<string, unknown>,
    schema: T,
  ): Promise<z.infer<T>> {
    let res: Response;
    try {
      res = await fetch(`${this.apiRoot}/bot${this.token}/${method}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(callTimeoutMs),
      });
    } catch {
      throw new BotApiUnavailableError(`${method}: no answer`);
    }
    const parsed = schema.safeParse(await res.json().catch(() => null));
    if (!parsed.success) throw new BotApiUnavailableError(`${method}: ${res.status}`);
    return parsed.data;
  }

  /** The file, refused past the upload limit even when Telegram's size was missing or wrong. */
  private async download(filePath: string): Promise<Buffer> {
    let res: Response;
    try {
      res = await fetch(
        `${this.apiRoot}/file/bot${this.token}/${filePath.split('/').map(encodeURIComponent).join('/')}`,
        {
          signal: AbortSignal.timeout(callTimeoutMs),
        },
      );
    } catch {
      throw new BotApiUnavailableError('file: no answer');
    }
    if (!res.ok) throw new BotApiUnavailableError(`file: ${res.status}`);
    // Bot API downloads are at most 20 MB; a declared length past the upload limit is not even read.
    if (Number(res.headers.get('Content-Length') ?? 0) > maxPhotoBytes)
      throw new BotApiUnavailableError('file: too large');
    let bytes: Buffer;
    try {
      bytes = Buffer.from(await res.arrayBuffer());
    } catch {
      throw new BotApiUnavailableError('file: cut short');
    }
    if (bytes.length > maxPhotoBytes) throw new BotApiUnavailableError('file: too large');
    return bytes;
  }
}
