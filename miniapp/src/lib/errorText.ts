import type { TFunction } from 'i18next';
import { ApiError } from '../api/client.ts';

/**
 * What to show for a failed call (DESIGN section 4, spec section 8): the translation of the server's
 * `code` when there is one, else the server's own text, else the screen's default message.
 */
/** Codes that say nothing about the screen's task: its own message (spec section 8) is more useful. */
const genericCodes = new Set(['not_found', 'internal', 'method_not_allowed', 'network', 'bad_response']);

export function errorText(t: TFunction, error: unknown, fallbackKey: string): string {
  if (error instanceof ApiError) {
    if (error.code && !genericCodes.has(error.code)) {
      const key = `errors.${error.code}`;
      const translated = t(key, { defaultValue: '' });
      if (translated) return translated;
      if (error.status >= 400 && error.status < 500) return error.message;
    }
    if (error.code === 'network') return t('app.errors.network');
  }
  return t(fallbackKey);
}
