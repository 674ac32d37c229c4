/** The interface languages, without their texts: the app imports this without pulling in both dictionaries. */
export const languages = ['ru', 'en'] as const;
export type Language = (typeof languages)[number];
/** Russian first (spec section 9), English when a string is missing. */
export const defaultLanguage: Language = 'ru';
export const fallbackLanguage: Language = 'en';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (languages as readonly string[]).includes(value);
}

/** Languages whose speakers mostly read Russian: the app speaks Russian to them, English to all others. */
const russianReaders = new Set(['ru', 'uk', 'be', 'kk']);

/**
 * The interface language for a person whose language tag (Telegram's `language_code`, the browser's
 * language) is `tag`: Russian for ru/uk/be/kk, English for any other; the default when there is none.
 */
export function languageOfTag(tag: string | null | undefined): Language {
  const base = tag?.trim().toLowerCase().split(/[-_]/)[0];
  if (!base) return defaultLanguage;
  return russianReaders.has(base) ? 'ru' : 'en';
}

/**
 * The dictionary sections the app uses; the rest (mail, bot, …) is the server's. `verification` is shared:
 * the server names the pose to take (`verification.pose.<id>`), the app says the rest of issue 40's screen.
 */
export const appSections = ['app', 'errors', 'verification'] as const;

/**
 * Parts of the app's sections only some screens need, shipped as files of their own and loaded by those
 * screens (i18n.ts loadLazyTexts), so they never weigh on a member's first load: `app.admin`, the moderation
 * console's texts (screens/Admin).
 */
export const lazyAppParts = ['admin'] as const;
export type LazyAppPart = (typeof lazyAppParts)[number];

/** How the app reports a key its dictionary lacks, in the console (every browser test fails on it). */
export const missingKeyMark = 'i18n: missing key';
