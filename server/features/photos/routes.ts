import { createReadStream } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AppRouter } from '../../http/context.ts';
import type { Services } from '../../services.ts';
import { uploadNamePattern } from './photoStore.ts';

const defaultPhoto = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../assets/default.jpg');

/**
 * Photos are public by their unguessable names (128 random bits), like the spec's `/api/uploads/{name}`
 * links the app puts in <img>. A name never changes content, so it is cached for a year as immutable.
 * The bytes come from the photo store (a folder or a bucket); a store that fails answers 503 (the error
 * handler), never the placeholder, which would then be cached in place of the photo.
 */
export function uploadRoutes(router: AppRouter, { photoStore }: Services): void {
  router.get('/uploads/:filename', async (ctx) => {
    const name = ctx.params.filename ?? '';
    if (photoStore.publicUrl && uploadNamePattern.test(name)) {
      // A CDN in front of the bucket serves it. The redirect is cached for a day, not a year, so a
      // change of PHOTO_PUBLIC_URL reaches every browser soon.
      ctx.set('Cache-Control', 'public, max-age=86400');
      ctx.redirect(`${photoStore.publicUrl}/${name}`);
      return;
    }
    const file = await photoStore.open(name);
    ctx.type = 'image/jpeg';
    if (file) {
      ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
      if (file.size !== undefined) ctx.length = file.size;
      ctx.body = file.body;
    } else {
      // An unknown name gets the placeholder, briefly cached: the name may be a photo still being written.
      ctx.set('Cache-Control', 'public, max-age=300');
      ctx.body = createReadStream(defaultPhoto);
    }
  });
}
