import type { z } from 'zod';
import { badRequest } from '../errors.ts';

/**
 * Parses untrusted input with a contract schema. The first problem becomes the message (the app shows it
 * as is), and every problem is listed under `fields` so a form can mark each input.
 */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.length ? issue.path.join('.') : '_';
    fields[key] ??= issue.code === 'unrecognized_keys' ? `Unknown field(s): ${issue.keys.join(', ')}` : issue.message;
  }
  const first = result.error.issues[0];
  const message =
    first?.code === 'unrecognized_keys'
      ? `Unknown field(s): ${first.keys.join(', ')}`
      : first?.code === 'invalid_type' && first.path.length === 0
        ? 'Invalid request body'
        : (first?.message ?? 'Invalid request');
  throw badRequest('invalid_input', message, fields);
}
