import i18next, { type TFunction } from 'i18next';
import en from './en.json' with { type: 'json' };
import ru from './ru.json' with { type: 'json' };
import { defaultLanguage, fallbackLanguage, isLanguage, languageOfTag, languages, type Language } from './languages.ts';

export { defaultLanguage, fallbackLanguage, isLanguage, languageOfTag, languages, type Language };

export const resources = { ru: { translation: ru }, en: { translation: en } } as const;

/**
 * Every `t()` of the server and the bot (TFunction, translatorFor, the bot context's `t`) knows the keys of
 * en.json, so a key the dictionary lacks fails `npm run typecheck`. i18next's own typing: a plural
 * (`_one`/`_other`) or gendered (`_male`/`_female`) key is also asked for by its base name. The app has
 * its own declaration (miniapp/src/i18n.ts) with only the sections it downloads.
 */
declare module 'i18next' {
  interface CustomTypeOptions {
    resources: { translation: typeof en };
  }
}

/**
 * The language for an Accept-Language header: its most preferred tag, by the same rule as everywhere
 * (`languageOfTag`), so the account gets the language the app showed on the first visit.
 */
export function languageFromAcceptLanguage(header: string | undefined): Language {
  if (!header) return defaultLanguage;
  const ranked = header
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = Number(
        params
          .find((p) => p.trim().startsWith('q='))
          ?.trim()
          .slice(2) ?? '1',
      );
      return { tag: tag.trim(), q: Number.isFinite(q) ? q : 0 };
    })
    .filter((r) => r.tag !== '' && r.tag !== '*' && r.q > 0)
    .sort((a, b) => b.q - a.q);
  return languageOfTag(ranked[0]?.tag);
}

const server = i18next.createInstance();
void server.init({
  resources,
  lng: defaultLanguage,
  fallbackLng: fallbackLanguage,
  supportedLngs: [...languages],
  initAsync: false,
  interpolation: { escapeValue: false },
});

/** A translator fixed to one language, for texts the server sends (e-mails, bot messages). */
export function translatorFor(language: Language): TFunction {
  return server.getFixedT(language);
}
