import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Issue 41: what the first screens load, read from the bundle the global setup built. The entry holds the
 * product's stack (React, the router, i18next), TanStack Query and the frame, never zod or a screen; each
 * first page adds what boot.js preloads for it (the API client with zod everywhere, the page's own
 * screen). The ceilings are today's sizes with a little room: a screen or library that lands in the first
 * load (instead of a lazy chunk of its own) fails here. `npm run bench frontend` measures the same pages
 * on the wire, headers included, against the goals (100 kB, 110 kB on /search).
 */
const dist = path.resolve(import.meta.dirname, '..', 'dist');
const kB = 1024;
const entryCeiling = 102 * kB;
const pageCeilings: Record<string, number> = { '/': 115.5 * kB, '/login': 116.5 * kB, '/search': 128.5 * kB };

/** What the server sends for a built file: its brotli twin, or the file when too small to have one. */
function sentBytes(file: string): number {
  const twin = path.join(dist, `${file}.br`);
  return readFileSync(existsSync(twin) ? twin : path.join(dist, file)).length;
}

const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
const entry = [...html.matchAll(/<script type="module"[^>]* src="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1] ?? '');
const preloads = new Map(
  (html.match(/<meta name="iskra-preload" content="([^"]*)"/)?.[1] ?? '').split(';').map((group) => {
    const [page = '', files = ''] = group.split('=');
    return [page, files.split(',').map((file) => file.replace(/^\//, ''))] as const;
  }),
);
const scripts = (files: readonly string[] | undefined) => (files ?? []).filter((file) => file.endsWith('.js'));

describe('the first load', () => {
  it('has an entry with the stack and the frame only, within its ceiling', () => {
    expect(entry.length).toBeGreaterThan(0);
    const bytes = entry.reduce((sum, file) => sum + sentBytes(file), 0);
    expect(bytes, `entry ${(bytes / kB).toFixed(1)} kB`).toBeLessThanOrEqual(entryCeiling);
    // zod arrives after the first paint, with the API client (its schema classes are named in the code).
    for (const file of entry) expect(readFileSync(path.join(dist, file), 'utf8')).not.toContain('$ZodType');
    expect(
      scripts(preloads.get('*')).some((file) => readFileSync(path.join(dist, file), 'utf8').includes('$ZodType')),
    ).toBe(true);
  });

  it.each(Object.keys(pageCeilings))('loads at most its ceiling of script on %s', (page) => {
    const files = [...entry, ...scripts(preloads.get('*')), ...scripts(preloads.get(page))];
    const bytes = files.reduce((sum, file) => sum + sentBytes(file), 0);
    expect(bytes, `${page}: ${(bytes / kB).toFixed(1)} kB in ${files.join(', ')}`).toBeLessThanOrEqual(
      pageCeilings[page] ?? 0,
    );
    // The Telegram SDK is loaded inside Telegram only.
    expect(files.some((file) => /\/telegram-/.test(file))).toBe(false);
  });
});
