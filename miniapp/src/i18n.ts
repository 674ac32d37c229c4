import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { defaultLanguage, fallbackLanguage, isLanguage, languages, resources, type Language } from '../../locales/index.ts';
import { readStored, storageKeys, writeStored } from './lib/storage.ts';

export { languages, type Language };

/** Russian by default, English fallback (spec section 9); the choice is kept under `language`. */
export function initialLanguage(): Language {
  const stored = readStored(storageKeys.language);
  return isLanguage(stored) ? stored : defaultLanguage;
}

export async function initI18n(language: Language = initialLanguage()): Promise<void> {
  await i18next.use(initReactI18next).init({
    resources,
    lng: language,
    fallbackLng: fallbackLanguage,
    supportedLngs: [...languages],
    interpolation: { escapeValue: false }, // React escapes
    returnNull: false,
  });
  document.documentElement.lang = language;
}

export async function changeLanguage(language: Language): Promise<void> {
  writeStored(storageKeys.language, language);
  document.documentElement.lang = language;
  await i18next.changeLanguage(language);
}
