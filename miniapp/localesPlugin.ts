import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import { appSections, languages, lazyAppParts } from '../locales/languages.ts';

export const localesMetaName = 'iskra-locales';
/** `<language>-<part>=<url>` of the lazily loaded parts of `app` (languages.ts lazyAppParts). */
export const lazyLocalesMetaName = 'iskra-locales-lazy';

/**
 * Each language's dictionary as its own hashed JSON file with only the sections the app uses, instead of
 * both whole dictionaries inside the entry script: a visitor downloads one language, and the entry stays
 * small as the texts grow. index.html lists the files in a meta tag, so boot.js can preload the chosen
 * language in parallel with the entry script (no request waterfall).
 */
export function localesPlugin(localesDir: string): Plugin {
  const files = new Map<string, string>();
  const lazyFiles = new Map<string, string>();
  const emit = (
    context: { emitFile: (file: { type: 'asset'; fileName: string; source: string }) => string },
    base: string,
    source: string,
  ) => {
    const hash = createHash('sha256').update(source).digest('base64url').slice(0, 10);
    const fileName = `assets/${base}-${hash}.json`;
    context.emitFile({ type: 'asset', fileName, source });
    return `/${fileName}`;
  };
  return {
    name: 'iskra-locales',
    apply: 'build',
    // buildStart, not generateBundle: the file names must be known before index.html is transformed.
    buildStart() {
      for (const language of languages) {
        const all = JSON.parse(readFileSync(path.join(localesDir, `${language}.json`), 'utf8')) as Record<
          string,
          unknown
        >;
        // The lazy parts of `app` leave the first-load file; each becomes a file of its own.
        const allApp = (all.app ?? {}) as Record<string, unknown>;
        const lazy: readonly string[] = lazyAppParts;
        const app = Object.fromEntries(Object.entries(allApp).filter(([key]) => !lazy.includes(key)));
        for (const part of lazyAppParts) {
          const partSource = JSON.stringify({ app: { [part]: allApp[part] ?? {} } });
          lazyFiles.set(`${language}-${part}`, emit(this, `locale-${language}-${part}`, partSource));
        }
        const source = JSON.stringify(
          Object.fromEntries(appSections.map((section) => [section, section === 'app' ? app : (all[section] ?? {})])),
        );
        files.set(language, emit(this, `locale-${language}`, source));
      }
    },
    transformIndexHtml: {
      order: 'post',
      handler: () => [
        {
          tag: 'meta',
          attrs: {
            name: localesMetaName,
            content: [...files].map(([language, url]) => `${language}=${url}`).join(';'),
          },
          injectTo: 'head-prepend',
        },
        {
          tag: 'meta',
          attrs: {
            name: lazyLocalesMetaName,
            content: [...lazyFiles].map(([key, url]) => `${key}=${url}`).join(';'),
          },
          injectTo: 'head',
        },
      ],
    },
  };
}
