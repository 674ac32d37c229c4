import type { TFunction } from 'i18next';
import { ApiError } from '../api/ApiError.ts';
import type { TranslationKey } from '../i18n.ts';

/** Codes that say nothing about the screen's task: its own message (spec section 8) is more useful. */
const genericCodes = new Set(['not_found', 'internal', 'method_not_allowed', 'network', 'bad_response']);

/**
 * What to show for a failed call (DESIGN section 4, spec section 8): the translation of the server's
 * `code` when there is one, else the server's own text for a refusal (4xx). Otherwise the screen's own
 * message, in the spec's two kinds: `failedKey` ("Failed to …") when the server said no, and
 * `exceptionKey` ("Error …") when something broke on the way (a server error, an unreadable answer, a
 * bug); a lost connection says so instead.
 */
export function errorText(
  t: TFunction,
  error: unknown,
  failedKey: TranslationKey,
  exceptionKey: TranslationKey = failedKey,
): string {
  if (error instanceof ApiError) {
    if (error.code && !genericCodes.has(error.code)) {
      // A code is the server's word, not a key the type check can know: the empty default value makes an
      // untranslated code fall through to the server's text instead of showing its key.
      const translated = t(`errors.${error.code}`, { defaultValue: '' });
      if (translated) return translated;
      if (error.status >= 400 && error.status < 500) return error.message;
    }
    if (error.code === 'network') return t('app.errors.network');
    if (error.status >= 400 && error.status < 500) return t(failedKey);
  }
  return t(exceptionKey);
}
