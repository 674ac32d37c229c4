import i18next, { type TFunction } from 'i18next';
import en from './en.json' with { type: 'json' };
import ru from './ru.json' with { type: 'json' };
import { defaultLanguage, fallbackLanguage, isLanguage, languageOfTag, languages, type Language } from './languages.ts';

export { defaultLanguage, fallbackLanguage, isLanguage, languageOfTag, languages, type Language };

export const resources = { ru: { translation: ru }, en: { translation: en } } as const;

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
