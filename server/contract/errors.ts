import { z } from 'zod/mini';

/** Every error response: an English message, a stable code to translate, and per-field problems on 400. */
export const errorResponse = z.looseObject({
  error: z.string(),
  code: z.string(),
  fields: z.optional(z.record(z.string(), z.string())),
  request_id: z.optional(z.string()),
});
export type ErrorResponse = z.infer<typeof errorResponse>;
