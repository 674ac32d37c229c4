import { verificationUpload } from '../../contract/photoVerification.ts';
import { badRequest } from '../../errors.ts';
import { requireUser } from '../../http/auth.ts';
import type { AppRouter } from '../../http/context.ts';
import { readMultipart } from '../../http/multipart.ts';
import { parse } from '../../http/validate.ts';
import type { Services } from '../../services.ts';
import { maxPhotoBytes, photoTooLarge } from '../photos/index.ts';

const oneSelfieOnly = () => badRequest('one_selfie_only', 'Send one selfie');

/** Selfie verification (issue 40): the state, a selfie check, and withdrawing consent to face data. */
export function photoVerificationRoutes(router: AppRouter, { photoVerification, uploadBudget }: Services): void {
  router.get('/verification', async (ctx) => {
    const auth = requireUser(ctx);
    ctx.body = await photoVerification.state(auth.userId, auth.language);
  });

  router.post('/verification', async (ctx) => {
    const auth = requireUser(ctx);
    if (!ctx.is('multipart')) throw badRequest('invalid_input', 'Send the selfie as multipart/form-data');
    const body = await readMultipart(ctx, {
      budget: uploadBudget,
      fileFields: ['selfie'],
      maxFiles: 1,
      maxFileBytes: maxPhotoBytes,
      tooManyFiles: oneSelfieOnly,
      fileTooLarge: photoTooLarge,
    });
    const fields = parse(verificationUpload, body.fields);
    const selfie = body.files[0];
    if (!selfie) throw badRequest('selfie_required', 'Send a selfie', { selfie: 'required' });
    ctx.body = await photoVerification.submit(auth.userId, fields, selfie.bytes, auth.language);
  });

  router.delete('/verification/consent', async (ctx) => {
    const auth = requireUser(ctx);
    ctx.body = await photoVerification.withdrawConsent(auth.userId, auth.language);
  });
}
