import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import { appSections, languages } from '../locales/languages.ts';

export const localesMetaName = 'iskra-locales';

/**
 * Each language's dictionary as its own hashed JSON file with only the sections the app uses, instead of
 * both whole dictionaries inside the entry script: a visitor downloads one language, and the entry stays
 * small as the texts grow. index.html lists the files in a meta tag, so boot.js can preload the chosen
 * language in parallel with the entry script (no request waterfall).
 */
export function localesPlugin(localesDir: string): Plugin {
  const files = new Map<string, string>();
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
        const source = JSON.stringify(Object.fromEntries(appSections.map((section) => [section, all[section] ?? {}])));
        const hash = createHash('sha256').update(source).digest('base64url').slice(0, 10);
        const fileName = `assets/locale-${language}-${hash}.json`;
        this.emitFile({ type: 'asset', fileName, source });
        files.set(language, `/${fileName}`);
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
      ],
    },
  };
}
