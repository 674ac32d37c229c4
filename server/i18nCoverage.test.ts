import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import en from '../locales/en.json' with { type: 'json' };
import ru from '../locales/ru.json' with { type: 'json' };

type Tree = { [key: string]: string | Tree };

function keys(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([k, v]) =>
    typeof v === 'string' ? [`${prefix}${k}`] : keys(v, `${prefix}${k}.`),
  );
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return full.endsWith('.ts') && !full.endsWith('.test.ts') ? [full] : [];
  });
}

describe('locales', () => {
  it('has every key in both Russian and English', () => {
    // Plural forms differ by language (Russian has few and many); the base key must exist in both.
    const base = (tree: Tree) =>
      [...new Set(keys(tree).map((k) => k.replace(/_(zero|one|two|few|many|other)$/, '')))].sort();
    expect(base(ru as Tree)).toEqual(base(en as Tree));
  });

  it('translates every error code the server can answer with', () => {
    const codes = new Set<string>();
    for (const file of sourceFiles(path.join(import.meta.dirname))) {
      const text = readFileSync(file, 'utf8');
      // Codes appear as the first argument of the error helpers or as `code: '...'`.
      for (const match of text.matchAll(
        /(?:badRequest|forbidden|conflict|notFound|tooManyRequests|AppError\(\d+,)\s*\(?\s*'([a-z_]+)'/g,
      ))
        codes.add(match[1] ?? '');
    }
    const translated = new Set(Object.keys((en as { errors: Record<string, string> }).errors));
    const missing = [...codes].filter((code) => !translated.has(code));
    expect(codes.size).toBeGreaterThan(10);
    expect(missing).toEqual([]);
  });
});
