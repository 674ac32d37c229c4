import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import ru from '../../locales/ru.json' with { type: 'json' };
import { startSite, type Site } from './harness.ts';

/** What the first visit downloads: one language's texts, compressed files, nothing twice. */
describe('first load', () => {
  let site: Site;
  beforeAll(async () => {
    site = await startSite();
  });
  afterAll(async () => {
    await site.close();
  });

  it('fetches only the chosen language, brotli-compressed, and the other one on switching', async () => {
    const { context, page, errors } = await site.page();
    const fetched: { path: string; encoding: string | undefined }[] = [];
    page.on('response', (response) => {
      const { pathname } = new URL(response.url());
      if (pathname.startsWith('/assets/'))
        fetched.push({ path: pathname, encoding: response.headers()['content-encoding'] });
    });

    await page.goto('/');
    await page.getByRole('heading', { name: ru.app.landing.title, level: 1 }).waitFor();
    const dictionaries = fetched.filter((f) => f.path.includes('/locale-'));
    expect(dictionaries.map((d) => d.path.match(/locale-(ru|en)-/)?.[1])).toEqual(['ru']);
    const scripts = fetched.filter((f) => f.path.endsWith('.js') && f.path.includes('/index-'));
    expect(scripts).toHaveLength(1);
    expect(scripts[0]?.encoding).toBe('br');

    await page.getByRole('button', { name: /^EN\b/ }).first().click();
    await page.getByRole('heading', { name: en.app.landing.title, level: 1 }).waitFor();
    expect(fetched.filter((f) => f.path.includes('/locale-en-'))).toHaveLength(1);
    expect(await page.getAttribute('html', 'lang')).toBe('en');

    await context.close();
    expect(errors).toEqual([]);
  });
});
