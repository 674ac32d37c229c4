/** The interface languages, without their texts: the app imports this without pulling in both dictionaries. */
export const languages = ['ru', 'en'] as const;
export type Language = (typeof languages)[number];
/** Russian first (spec section 9), English when a string is missing. */
export const defaultLanguage: Language = 'ru';
export const fallbackLanguage: Language = 'en';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (languages as readonly string[]).includes(value);
}

/** The dictionary sections the app uses; the rest (mail, bot, …) is the server's. */
export const appSections = ['app', 'errors'] as const;
