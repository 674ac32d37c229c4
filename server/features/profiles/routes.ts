import { settingsBody } from '../../contract/discovery.ts';
import type { ProfileSavedResponse } from '../../contract/profileSaved.ts';
import { createProfileFields, editProfileFields, maxPhotos, photoEdits } from '../../contract/profiles.ts';
import { badRequest } from '../../errors.ts';
import { requireUser } from '../../http/auth.ts';
import type { AppContext, AppRouter } from '../../http/context.ts';
import { readMultipart, type MultipartBody, type UploadBudget } from '../../http/multipart.ts';
import { parse } from '../../http/validate.ts';
import type { Services } from '../../services.ts';
import { presentCurrentUser } from '../accounts/index.ts';
import { maxPhotoBytes, photoTooLarge } from '../photos/index.ts';
import { tooManyPhotos } from './service.ts';

function readPhotos(ctx: AppContext, budget: UploadBudget, fileFields: string[]): Promise<MultipartBody> {
  return readMultipart(ctx, {
    budget,
    fileFields,
    maxFiles: maxPhotos,
    maxFileBytes: maxPhotoBytes,
    tooManyFiles: tooManyPhotos,
    fileTooLarge: photoTooLarge,
  });
}

function parseJsonField(text: string | undefined): unknown {
  if (text === undefined || text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest('invalid_input', 'payload must be JSON');
  }
}

export function profileRoutes(router: AppRouter, { db, profiles, uploadBudget }: Services): void {
  router.get('/settings', async (ctx) => {
    ctx.body = await profiles.settings(requireUser(ctx).userId);
  });

  router.post('/settings', async (ctx) => {
    const changes = parse(settingsBody, ctx.request.body);
    ctx.body = await profiles.updateSettings(requireUser(ctx).userId, changes);
  });

  router.post('/create_profile', async (ctx) => {
    const auth = requireUser(ctx);
    const body = await readPhotos(ctx, uploadBudget, ['photos', 'photo']);
    const fields = parse(createProfileFields, body.fields);
    const profile = await profiles.create(
      auth.userId,
      auth.verified,
      fields,
      body.files.map((f) => f.bytes),
      auth.language,
    );
    ctx.status = 201;
    ctx.body = {
      message: 'Profile created successfully',
      profile,
      current_user: await presentCurrentUser(db, auth),
    } satisfies ProfileSavedResponse;
  });

  router.get('/profile', async (ctx) => {
    const auth = requireUser(ctx);
    ctx.body = await profiles.get(auth.userId, auth.language);
  });

  router.get('/edit_profile', async (ctx) => {
    const auth = requireUser(ctx);
    ctx.body = await profiles.get(auth.userId, auth.language);
  });

  /** Multipart (fields, `payload` JSON with the photo edits, files under `newPhotos`) or plain JSON. */
  router.post('/edit_profile', async (ctx) => {
    const auth = requireUser(ctx);
    if (ctx.is('multipart')) {
      const body = await readPhotos(ctx, uploadBudget, ['newPhotos', 'photos']);
      const { payload, ...rest } = body.fields;
      const edits = parse(photoEdits, parseJsonField(payload));
      const fields = parse(editProfileFields, rest);
      const profile = await profiles.edit(
        auth.userId,
        fields,
        edits,
        body.files.map((f) => f.bytes),
        auth.language,
      );
      ctx.body = {
        message: 'Profile updated successfully',
        profile,
        current_user: await presentCurrentUser(db, auth),
      } satisfies ProfileSavedResponse;
      return;
    }
    const { deletedPhotos, newPhotos, order, ...rest } = (ctx.request.body ?? {}) as Record<string, unknown>;
    const edits = parse(photoEdits, { deletedPhotos, newPhotos, order });
    const fields = parse(editProfileFields, rest);
    const profile = await profiles.edit(auth.userId, fields, edits, [], auth.language);
    ctx.body = {
      message: 'Profile updated successfully',
      profile,
      current_user: await presentCurrentUser(db, auth),
    } satisfies ProfileSavedResponse;
  });

  router.post('/delete_profile', async (ctx) => {
    await profiles.delete(requireUser(ctx).userId);
    ctx.body = { message: 'Profile deleted successfully' };
  });
}
