import { z } from 'zod';

/** Every error response: an English message, a stable code to translate, and per-field problems on 400. */
export const errorResponse = z.looseObject({
  error: z.string(),
  code: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
  request_id: z.string().optional(),
});
export type ErrorResponse = z.infer<typeof errorResponse>;
