import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AppRouter } from '../../http/context.ts';
import type { Services } from '../../services.ts';

const defaultPhoto = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../assets/default.jpg');

/**
 * Photos are public by their unguessable names (128 random bits), like the spec's `/api/uploads/{name}`
 * links the app puts in <img>. A name never changes content, so it is cached for a year as immutable.
 */
export function uploadRoutes(router: AppRouter, { photoStore }: Services): void {
  router.get('/uploads/:filename', async (ctx) => {
    const file = photoStore.pathOf(ctx.params.filename ?? '');
    const found = file
      ? await stat(file).then(
          (s) => s.isFile(),
          () => false,
        )
      : false;
    ctx.type = 'image/jpeg';
    if (file && found) {
      ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
      ctx.body = createReadStream(file);
    } else {
      // An unknown name gets the placeholder, briefly cached: the name may be a photo still being written.
      ctx.set('Cache-Control', 'public, max-age=300');
      ctx.body = createReadStream(defaultPhoto);
    }
  });
}
