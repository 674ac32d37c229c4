import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { transformSync } from 'esbuild';
import type { Plugin } from 'vite';

/** The tag index.html loads boot.js with; the build puts the script itself there instead. */
export const bootScriptTag = '<script src="/boot.js"></script>';

/** boot.js as the build sends it: minified (ES5 as written, for the oldest webviews it still runs in). */
function minified(source: string): string {
  return transformSync(source, { minify: true, target: 'es5', loader: 'js' }).code.trim();
}

/**
 * public/boot.js is the one script every page waits for in <head> (issue 41), and Vite copies public files
 * as they are: its comments, which say why each step is there, went to every visitor. The build sends it
 * minified; the source stays as written. Before compressPlugin, whose twins are made from the minified file.
 *
 * It is also written into index.html itself (issue 41): as a file of its own it cost a round trip after
 * the HTML (150 ms on the bench's phone network) before the session's and the first card's requests could
 * start. The server allows exactly that inline script by its SHA-256 in the CSP's script-src
 * (server/http/staticApp.ts, securityHeaders.ts): no 'unsafe-inline'. dist/boot.js is still written, for a
 * page of an earlier build that a service worker or a tab still holds (it names /boot.js).
 */
export function bootScriptPlugin(): Plugin {
  let outDir = '';
  let publicDir = '';
  return {
    name: 'iskra-boot-script',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      publicDir = config.publicDir;
    },
    transformIndexHtml: {
      order: 'post',
      handler: (html) => {
        if (!html.includes(bootScriptTag)) throw new Error(`bootScriptPlugin: index.html has no ${bootScriptTag}`);
        const code = minified(readFileSync(path.join(publicDir, 'boot.js'), 'utf8'));
        // A script's text ends at the first "</script": the minifier never writes one, but a string might.
        if (/<\/script/i.test(code)) throw new Error('bootScriptPlugin: boot.js may not contain "</script"');
        return html.replace(bootScriptTag, () => `<script>${code}</script>`);
      },
    },
    closeBundle() {
      const file = path.join(outDir, 'boot.js');
      writeFileSync(file, minified(readFileSync(file, 'utf8')));
    },
  };
}
