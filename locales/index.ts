import { readFileSync } from 'node:fs';
import i18next, { type i18n, type ResourceKey, type TFunction } from 'i18next';
import { defaultLanguage, fallbackLanguage, isLanguage, languageOfTag, languages, type Language } from './languages.ts';

export { defaultLanguage, fallbackLanguage, isLanguage, languageOfTag, languages, type Language };

/**
 * Every `t()` of the server and the bot (TFunction, translatorFor, the bot context's `t`) knows the keys of
 * en.json, so a key the dictionary lacks fails `npm run typecheck`. i18next's own typing: a plural
 * (`_one`/`_other`) or gendered (`_male`/`_female`) key is also asked for by its base name. The app has
 * its own declaration (miniapp/src/i18n.ts) with only the sections it downloads.
 */
declare module 'i18next' {
  interface CustomTypeOptions {
    resources: { translation: typeof import('./en.json', { with: { type: 'json' } }) };
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

/**
 * The server's translator, made at its first use: the dictionaries are read from the JSON files then rather
 * than compiled into the server, whose text V8 would keep beside the parsed objects for as long as it runs
 * (226 kB of escaped Cyrillic), and a server that sends no e-mail, push or bot message never reads them
 * (issue 41: memory).
 */
let server: i18n | undefined;

function serverI18n(): i18n {
  if (server) return server;
  const dictionary = (language: Language): ResourceKey =>
    JSON.parse(readFileSync(new URL(`./${language}.json`, import.meta.url), 'utf8'));
  const instance = i18next.createInstance();
  void instance.init({
    resources: Object.fromEntries(languages.map((language) => [language, { translation: dictionary(language) }])),
    lng: defaultLanguage,
    fallbackLng: fallbackLanguage,
    supportedLngs: [...languages],
    initAsync: false,
    interpolation: { escapeValue: false },
  });
  server = instance;
  return instance;
}

/** A translator fixed to one language, for texts the server sends (e-mails, bot messages). */
export function translatorFor(language: Language): TFunction {
  return serverI18n().getFixedT(language);
}
