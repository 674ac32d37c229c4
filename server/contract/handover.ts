import { z } from 'zod/mini';

/** How long a handover code works. */
export const handoverLifetimeSeconds = 5 * 60;

/** 32 random bytes in base64url, as the server makes them. */
const handoverCode = z
  .string({ error: 'Code is required' })
  .check(z.regex(/^[A-Za-z0-9_-]{43}$/, 'Invalid sign-in link'));

/**
 * `POST /api/session/handover`: a one-time link to the token page (`/token#code=…`) that signs another
 * browser in to this session's account, once, within `handoverLifetimeSeconds`.
 */
export const handoverResponse = z.object({ url: z.string(), expires_at: z.string() });
export type HandoverResponse = z.infer<typeof handoverResponse>;

/** `POST /api/session/handover/preview` and `/redeem`: the code from the link. */
export const handoverCodeRequest = z.strictObject({ code: handoverCode, csrf_token: z.optional(z.string()) });

/** Who the link signs in as, for "Continue as <name>?": the profile's name, or null without a profile. */
export const handoverPreviewResponse = z.object({ name: z.nullable(z.string()) });
export type HandoverPreviewResponse = z.infer<typeof handoverPreviewResponse>;
