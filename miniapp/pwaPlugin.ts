import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { Plugin } from 'vite';

/** The app's background in each theme (styles/app.css `--bg`), also the colour of the bars around it. */
const light = '#fff7f5';
const dark = '#121016';

/**
 * The maskable icon: the favicon's spark on a full-bleed gradient, inside the middle 60 % (the safe zone
 * a launcher's mask never cuts into is a circle of 80 %).
 */
const maskableSvg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#ff5a5f"/><stop offset="1" stop-color="#ff9f43"/></linearGradient></defs><rect width="64" height="64" fill="url(#g)"/><g transform="translate(12.8 12.8) scale(0.6)"><path d="M35 8 18 36h12l-3 20 19-30H34z" fill="#fff"/></g></svg>`;

function manifest(icons: { src: string; sizes: string; purpose: string }[]) {
  return {
    id: '/',
    name: 'Искра · Iskra',
    short_name: 'Искра',
    description: 'Искра: знакомства рядом с вами. Iskra: dating near you.',
    lang: 'ru',
    start_url: '/search',
    scope: '/',
    display: 'standalone',
    theme_color: light,
    background_color: light,
    // Chromium's per-scheme colours (manifest incubation "user_preferences"): the dark theme's bars and splash.
    user_preferences: { color_scheme_dark: { theme_color: dark, background_color: dark } },
    categories: ['social', 'lifestyle'],
    icons: icons.map((icon) => ({ ...icon, type: 'image/png' })),
  };
}

/**
 * Makes the site installable (issue 39): PNG icons rendered with sharp from the favicon's SVG (192 and
 * 512 px, and a maskable 512 px), `manifest.webmanifest`, and `sw.js` from serviceWorker.js with this
 * build's file list, so the service worker changes (and reinstalls) whenever the build does.
 */
export function pwaPlugin(): Plugin {
  let root = '';
  let shell: string[] = [];
  let manifestVersion = '';
  return {
    name: 'iskra-pwa',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    async generateBundle() {
      const favicon = readFileSync(path.join(root, 'public', 'favicon.svg'));
      const icons = [
        { fileName: 'icons/icon-192.png', svg: favicon, size: 192, purpose: 'any' },
        { fileName: 'icons/icon-512.png', svg: favicon, size: 512, purpose: 'any' },
        { fileName: 'icons/maskable-512.png', svg: Buffer.from(maskableSvg), size: 512, purpose: 'maskable' },
      ];
      for (const icon of icons) {
        const source = await sharp(icon.svg, { density: (72 * icon.size) / 64 })
          .resize(icon.size, icon.size)
          .png({ compressionLevel: 9 })
          .toBuffer();
        this.emitFile({ type: 'asset', fileName: icon.fileName, source });
      }
      const manifestText = JSON.stringify(
        manifest(icons.map((i) => ({ src: `/${i.fileName}`, sizes: `${i.size}x${i.size}`, purpose: i.purpose }))),
        null,
        2,
      );
      this.emitFile({ type: 'asset', fileName: 'manifest.webmanifest', source: manifestText });

      // Not /boot.js: index.html carries it (bootScriptPlugin.ts); an earlier build's worker keeps its own.
      shell = ['/', '/favicon.svg', '/manifest.webmanifest', ...icons.map((i) => `/${i.fileName}`)];
      manifestVersion = manifestText;
    },
    // Written once the bundle is final: generateBundle still lists chunks that a later step drops (the
    // CSS-only chunks Vite removes), and a precache naming a missing file would fail the worker's install.
    writeBundle(options, bundle) {
      const outDir = options.dir ?? path.join(root, 'dist');
      const assets = Object.keys(bundle)
        .filter((name) => name.startsWith('assets/'))
        .sort()
        .map((name) => `/${name}`);
      const precache = [...shell, ...assets];
      const template = readFileSync(path.join(root, 'serviceWorker.js'), 'utf8');
      const version = createHash('sha256')
        .update(template)
        .update(precache.join('\n'))
        .update(manifestVersion)
        .digest('hex')
        .slice(0, 12);
      // The assignments, not the first mention: the placeholder is also named in the file's `global` comment.
      const source = template
        .replace("const version = '__ISKRA_SW_VERSION__'", `const version = ${JSON.stringify(version)}`)
        .replace('const precache = __ISKRA_SW_PRECACHE__', `const precache = ${JSON.stringify(precache)}`);
      if (source.includes(`const precache = ${JSON.stringify(precache)}`) === false)
        throw new Error('pwaPlugin: the precache placeholder was not found');
      writeFileSync(path.join(outDir, 'sw.js'), source);
    },
  };
}
