import { z } from 'zod/mini';
import { badRequest } from '../errors.ts';

/**
 * The contract is written with zod/mini (so the app's first load stays small), and zod/mini carries no
 * texts of its own: the built-in messages (a wrong type, an unknown option) are full zod's English ones,
 * as the API has always answered. Set here, where requests are parsed, rather than left to whichever
 * module happens to build a full-zod schema first (that also installs them, in the same shared config).
 */
z.config(z.locales.en());

/** A UTF-16 surrogate without its pair. */
const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const unstorable = (text: string) => text.includes('\u0000') || loneSurrogate.test(text);
const unstorableTextMessage = 'Text must not contain NUL or broken Unicode characters';

/**
 * The path of the first text (a value or a key) that no database can store as given: PostgreSQL refuses
 * U+0000 in text (a 500, where SQLite stores it), and a lone surrogate has no UTF-8 form, so it would be
 * stored silently as U+FFFD. Walked with a stack, not recursion: a 64 KB JSON body nests 30,000 deep.
 */
function findUnstorableText(input: unknown): string | undefined {
  const pending: { value: unknown; path: string }[] = [{ value: input, path: '_' }];
  for (let item = pending.pop(); item; item = pending.pop()) {
    const { value, path } = item;
    if (typeof value === 'string') {
      if (unstorable(value)) return path;
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, child] of Object.entries(value)) {
        const childPath = path === '_' ? key : `${path}.${key}`;
        if (unstorable(key)) return childPath;
        pending.push({ value: child, path: childPath });
      }
    }
  }
  return undefined;
}

/**
 * Parses untrusted input with a contract schema. The first problem becomes the message (the app shows it
 * as is), and every problem is listed under `fields` so a form can mark each input.
 */
export function parse<S extends z.core.$ZodType>(schema: S, input: unknown): z.output<S> {
  const badText = findUnstorableText(input);
  if (badText !== undefined)
    throw badRequest('invalid_input', unstorableTextMessage, { [badText]: unstorableTextMessage });
  const result = z.safeParse(schema, input ?? {});
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
