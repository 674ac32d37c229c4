import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import { languages } from '../locales/languages.ts';

/** index.html's mount point, after which the build writes the landing. */
const rootTag = '<div id="root"></div>';

/**
 * Written right after the landing's template: on the page boot.js marked (`data-boot-landing`), moves the
 * copy of the chosen language into `#root`, before the body's first paint. Until then, and on every
 * other page, the copies are a template's inert content: no selector of the app's (or a test's) meets
 * them. Allowed like boot.js, by its hash (server/http/staticApp.ts).
 */
const showLanding =
  "(function(){var h=document.documentElement,t=document.getElementById('boot-landing'),c=h.hasAttribute('data-boot-landing')&&t&&t.content.querySelector('.boot-landing[lang=\"'+h.lang+'\"]');c&&document.getElementById('root').appendChild(c);t&&t.remove()})()";

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A dictionary's text by its dotted key, escaped for HTML; a missing key fails the build. */
function texts(dictionary: unknown, language: string): (key: string) => string {
  return (key) => {
    const value = key
      .split('.')
      .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], dictionary);
    if (typeof value !== 'string') throw new Error(`bootLandingPlugin: no text ${key} in ${language}.json`);
    return escapeHtml(value);
  };
}

/**
 * The landing as the app draws it first (components/Layout.tsx, TopBar.tsx while the session loads,
 * screens/Landing/LandingScreen.tsx with its anonymous buttons; no footer, whose details come later), in one
 * language, without ids (two languages' copies share the page).
 */
function landing(language: string, t: (key: string) => string): string {
  const switcher = languages
    .map(
      (option) =>
        `<button type="button" disabled lang="${option}" aria-pressed="${option === language}">${t(`app.language.short.${option}`)}<span class="visually-hidden"> ${t(`app.language.name.${option}`)}</span></button>`,
    )
    .join('');
  return [
    `<div class="app boot-landing" lang="${language}">`,
    `<header class="topbar crowded"><a class="brand" href="/search" aria-label="${t('app.brand.home')}"><img src="/favicon.svg" alt="" width="28" height="28"><span>${t('app.brand.name')}</span></a>`,
    `<nav aria-label="${t('app.nav.label')}" class="topnav"><span class="topnav-placeholder" aria-hidden="true"></span></nav></header>`,
    `<main class="main"><div class="landing"><section class="hero">`,
    `<div class="hero-lang"><div class="segmented" role="group" aria-label="${t('app.language.label')}">${switcher}</div></div>`,
    `<div class="hero-mark" aria-hidden="true"><img src="/favicon.svg" alt="" width="72" height="72"></div>`,
    `<h1>${t('app.landing.title')}</h1><p class="lead">${t('app.landing.description')}</p>`,
    `<ul class="benefits"><li>${t('app.landing.point1')}</li><li>${t('app.landing.point2')}</li><li>${t('app.landing.point3')}</li></ul>`,
    `<div class="actions"><a class="button large" href="/register">${t('app.landing.tryNow')}</a><a class="button large secondary" href="/login">${t('app.landing.signIn')}</a></div>`,
    `</section></div></main></div>`,
  ].join('');
}

/**
 * Issue 41: on `/` the largest paint is the landing's lead paragraph, which the app drew only once its
 * entry script (92 kB) had arrived and run, about 0.4 s after the HTML on a phone's network. The build
 * writes the landing into index.html, one copy per language in a template; on the web's `/` only
 * (`data-boot-landing`, set by public/boot.js; not inside Telegram, whose `/` opens the deck) the script
 * after it moves the chosen language's copy into `#root`, so it paints with the HTML and its stylesheet. The same elements with the same classes as the app's first drawing of the landing:
 * React's first render replaces `#root`'s content in one commit, in place, with no shift
 * (miniapp/e2e/bootLanding.e2e.test.ts compares the two). Its links work before the app has run.
 */
export function bootLandingPlugin(localesDir: string): Plugin {
  let skip = false;
  return {
    name: 'iskra-boot-landing',
    apply: 'build',
    configResolved(config) {
      // A build that fakes Telegram everywhere (VITE_TELEGRAM_MOCK=1, development) has no web landing.
      skip = config.env.VITE_TELEGRAM_MOCK === '1';
    },
    transformIndexHtml: {
      order: 'post',
      handler: (html) => {
        if (skip) return html;
        if (!html.includes(rootTag)) throw new Error(`bootLandingPlugin: index.html has no ${rootTag}`);
        const copies = languages.map((language) => {
          const dictionary: unknown = JSON.parse(readFileSync(path.join(localesDir, `${language}.json`), 'utf8'));
          return landing(language, texts(dictionary, language));
        });
        return html.replace(
          rootTag,
          () => `${rootTag}<template id="boot-landing">${copies.join('')}</template><script>${showLanding}</script>`,
        );
      },
    },
  };
}
