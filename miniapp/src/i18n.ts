import i18next, { type ParseKeys } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type en from '@locales/en.json';
import {
  isLanguage,
  languageOfTag,
  languages,
  missingKeyMark,
  type appSections,
  type Language,
  type LazyAppPart,
} from '@locales/languages.ts';
import { readStored, storageKeys, writeStored } from './lib/storage.ts';

export { languages, type Language };

/**
 * The choice kept under `language` (the account's, once signed in: see followAccountLanguage); on a first
 * visit the browser's own language by the rule the server uses for new accounts (languageOfTag).
 */
export function initialLanguage(): Language {
  const stored = readStored(storageKeys.language);
  return isLanguage(stored) ? stored : languageOfTag(navigator.languages[0] ?? navigator.language);
}

/**
 * `t()` knows the keys of the app's part of the dictionary (the sections localesPlugin ships), so a key that
 * en.json lacks, or one from the server's sections that the app never downloads, fails the type check.
 * i18next's own typing: it also accepts a plural (`_one`/`_other`) or gendered (`_male`/`_female`) key by
 * its base name. Values stay `string` (the JSON import is not literal), so no interpolation parsing is paid.
 */
declare module 'i18next' {
  interface CustomTypeOptions {
    resources: { translation: Pick<typeof en, (typeof appSections)[number]> };
  }
}

/** A key of the app's dictionary, for a key chosen before `t()` is called (a prop, a table, a function's result). */
export type TranslationKey = ParseKeys;

type Dictionary = Record<string, unknown>;

/**
 * One language's texts. The build lists each language's JSON file in a meta tag (see localesPlugin.ts;
 * boot.js has already started fetching the chosen one); the dev server has no such files and imports the
 * JSON instead. Both dictionaries are complete (the i18n coverage test), so no fallback language is loaded.
 */
async function loadDictionary(language: Language): Promise<Dictionary> {
  if (import.meta.env.DEV) {
    return ((await import(`@locales/${language}.json`)) as { default: Dictionary }).default;
  }
  const listed = document.querySelector('meta[name="iskra-locales"]')?.getAttribute('content') ?? '';
  const url = new Map(listed.split(';').map((pair) => pair.split('=') as [string, string])).get(language);
  if (!url) throw new Error(`no dictionary for ${language}`);
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`dictionary ${language}: ${response.status}`);
  return (await response.json()) as Dictionary;
}

/**
 * Adds a lazily shipped part of the app's texts (languages.ts lazyAppParts) for the current language, once:
 * the screens that need it wait for this before they render. The dev server's dictionary is already whole.
 */
export async function loadLazyTexts(part: LazyAppPart, language: string = i18next.language): Promise<void> {
  if (import.meta.env.DEV || i18next.getResource(language, 'translation', `app.${part}`) !== undefined) return;
  const listed = document.querySelector('meta[name="iskra-locales-lazy"]')?.getAttribute('content') ?? '';
  const url = new Map(listed.split(';').map((pair) => pair.split('=') as [string, string])).get(`${language}-${part}`);
  if (!url) throw new Error(`no ${part} texts for ${language}`);
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`${part} texts ${language}: ${response.status}`);
  i18next.addResourceBundle(language, 'translation', (await response.json()) as Dictionary, true, true);
}

export async function initI18n(language: Language = initialLanguage()): Promise<void> {
  await i18next.use(initReactI18next).init({
    resources: { [language]: { translation: await loadDictionary(language) } },
    lng: language,
    supportedLngs: [...languages],
    interpolation: { escapeValue: false }, // React escapes
    returnNull: false,
    // A key missing from the dictionary shows as its own name: said in the console, where every browser
    // test fails on it (miniapp/e2e/harness.ts).
    saveMissing: true,
    missingKeyHandler: (_languages, _namespace, key) => {
      console.error(`${missingKeyMark} "${key}"`);
    },
  });
  document.documentElement.lang = language;
}

export async function changeLanguage(language: Language): Promise<void> {
  // The choice is kept at once: a reload while the dictionary is still loading must not forget it.
  writeStored(storageKeys.language, language);
  if (!i18next.hasResourceBundle(language, 'translation')) {
    i18next.addResourceBundle(language, 'translation', await loadDictionary(language));
  }
  document.documentElement.lang = language;
  await i18next.changeLanguage(language);
}

/**
 * The account's language wins over this device's choice (spec: one language per person, also in the
 * bot). Resolves once the screens speak it, so a first screen is never drawn in the other language.
 */
export async function followAccountLanguage(account: Language | undefined): Promise<void> {
  if (account && account !== i18next.language) await changeLanguage(account);
}
