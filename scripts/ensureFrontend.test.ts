import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { frontendSources } from './ensure-frontend.ts';

const miniapp = path.resolve(import.meta.dirname, '..', 'miniapp');

/** The local files a module imports (`./x.ts`, `../y.ts`), as absolute paths. */
function localImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/\bfrom\s+['"](\.{1,2}\/[^'"]+)['"]/g)].map((match) =>
    path.resolve(path.dirname(file), match[1] ?? ''),
  );
}

describe("the front end's freshness check", () => {
  it('watches every file the Vite config imports, and what those import', () => {
    const sources = frontendSources();
    const covered = (file: string) => sources.some((source) => file === source || file.startsWith(source + path.sep));
    const config = path.join(miniapp, 'vite.config.ts');
    const seen = new Set<string>();
    const pending = [config];
    while (pending.length > 0) {
      const file = pending.pop() ?? config;
      if (seen.has(file)) continue;
      seen.add(file);
      pending.push(...localImports(file).filter((imported) => /\.(ts|js|mjs)$/.test(imported)));
    }
    // The plugins at least (bootScriptPlugin.ts, bootPreloadPlugin.ts... once missing: a stale dist).
    expect(seen.size).toBeGreaterThan(5);
    expect([...seen].filter((file) => !covered(file))).toEqual([]);
  });
});
