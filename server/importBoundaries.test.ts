import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';
import { afterAll, describe, expect, it } from 'vitest';
// The very rules `npm run lint` applies (eslint.config.js spreads them), without the slower type-aware ones.
import { importBoundaries, importResolverSettings } from '../importBoundaries.js';

const root = path.resolve(import.meta.dirname, '..');

const eslint = new ESLint({
  cwd: root,
  overrideConfigFile: true,
  overrideConfig: [
    { files: ['**/*.{ts,tsx}'], languageOptions: { parser: tseslint.parser } },
    {
      plugins: { 'import-x': importX },
      settings: importResolverSettings,
    },
    ...importBoundaries,
  ],
});

/** The boundary rules that fire on `code` placed at `file` (a path inside the repository). */
async function violations(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

describe('import boundaries (DESIGN.md arrows)', () => {
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });

  it('refuses the server importing the bot, except in the composition root', async () => {
    const wrong = "import { launchBot } from '../../../bot/launch.ts';\nexport const x = launchBot;\n";
    expect(await violations('server/features/search/wrong.ts', wrong)).toEqual(['import-x/no-restricted-paths']);
    expect(
      await violations(
        'server/main2.ts',
        "import { launchBot } from '../bot/launch.ts';\nexport const x = launchBot;\n",
      ),
    ).toEqual(['import-x/no-restricted-paths']);
    expect(
      await violations(
        'server/main.ts',
        "import { launchBot } from '../bot/launch.ts';\nexport const x = launchBot;\n",
      ),
    ).toEqual([]);
  });

  it('lets the app import only the contract and the locales', async () => {
    expect(
      await violations(
        'miniapp/src/screens/Wrong.tsx',
        "import { SearchService } from '../../../server/features/search/service.ts';\nexport const x = SearchService;\n",
      ),
    ).toEqual(['import-x/no-restricted-paths']);
    expect(
      await violations(
        'miniapp/src/screens/Right.tsx',
        "import { searchResult } from '../../../server/contract/discovery.ts';\nexport const x = searchResult;\n",
      ),
    ).toEqual([]);
    // Through the app's alias too: judged where it points, not skipped as unresolved.
    expect(
      await violations(
        'miniapp/src/screens/Alias.tsx',
        "import { searchResult } from '@contract/discovery.ts';\nexport const x = searchResult;\n",
      ),
    ).toEqual([]);
    expect(
      await violations(
        'miniapp/src/screens/AliasWrong.tsx',
        "import { x } from '@contract/../features/search/service.ts';\nexport const y = x;\n",
      ),
    ).toEqual(['import-x/no-restricted-paths']);
  });

  it('keeps db and the contract free of our other code', async () => {
    expect(
      await violations(
        'db/wrong.ts',
        "import { systemClock } from '../server/clock.ts';\nexport const x = systemClock;\n",
      ),
    ).toEqual(['import-x/no-restricted-paths']);
    expect(
      await violations(
        'server/contract/wrong.ts',
        "import { systemClock } from '../clock.ts';\nexport const x = systemClock;\n",
      ),
    ).toEqual(['import-x/no-restricted-paths']);
    expect(
      await violations(
        'server/contract/wrong.ts',
        "import { SearchService } from '../features/search/service.ts';\nexport const x = SearchService;\n",
      ),
    ).toEqual(['import-x/no-restricted-paths']);
    expect(
      await violations(
        'server/contract/right.ts',
        "import { searchResult } from './discovery.ts';\nexport const x = searchResult;\n",
      ),
    ).toEqual([]);
  });

  it('keeps full zod out of the contract: only zod/mini', async () => {
    const schema = (from: string) => `import { z } from '${from}';\nexport const x = z.string();\n`;
    expect(await violations('server/contract/wrong.ts', schema('zod'))).toEqual(['no-restricted-imports']);
    expect(await violations('server/contract/wrong.ts', schema('zod/v4'))).toEqual(['no-restricted-imports']);
    expect(
      await violations('server/contract/wrong.ts', "import type { z } from 'zod';\nexport type X = z.ZodString;\n"),
    ).toEqual(['no-restricted-imports']);
    expect(await violations('server/contract/right.ts', schema('zod/mini'))).toEqual([]);
    // Elsewhere on the server full zod stays fine.
    expect(await violations('server/features/search/right.ts', schema('zod'))).toEqual([]);
  });

  it("lets a feature reach another feature only through that feature's face (index.ts)", async () => {
    const use = (from: string) => `import { findUserById } from '${from}';\nexport const x = findUserById;\n`;
    expect(await violations('server/features/search/wrong.ts', use('../accounts/repository.ts'))).toEqual([
      'import-x/no-restricted-paths',
    ]);
    expect(await violations('server/features/search/right.ts', use('../accounts/index.ts'))).toEqual([]);
    // Its own feature's files stay open to it, and to its tests; another feature's stay closed to its tests too.
    expect(await violations('server/features/accounts/right.ts', use('./repository.ts'))).toEqual([]);
    expect(await violations('server/features/accounts/right.test.ts', use('./repository.ts'))).toEqual([]);
    expect(await violations('server/features/search/wrong.test.ts', use('../accounts/repository.ts'))).toEqual([
      'import-x/no-restricted-paths',
    ]);
    // The composition root wires the internals; the rule is between features.
    expect(await violations('server/services2.ts', use('./features/accounts/repository.ts'))).toEqual([]);
  });

  it('lets the bot import from the server only the faces, the contract and the listed modules', async () => {
    const use = (from: string) => `import * as m from '${from}';\nexport const x = m;\n`;
    expect(await violations('bot/features/wrong.ts', use('../../server/features/telegram/telegramUsers.ts'))).toEqual([
      'import-x/no-restricted-paths',
    ]);
    expect(await violations('bot/features/wrong.ts', use('../../server/services.ts'))).toEqual([
      'import-x/no-restricted-paths',
    ]);
    expect(await violations('bot/features/right.ts', use('../../server/features/telegram/index.ts'))).toEqual([]);
    expect(await violations('bot/right.ts', use('../server/contract/config.ts'))).toEqual([]);
    expect(await violations('bot/right.ts', use('../server/logger.ts'))).toEqual([]);
    // The test helpers: for the bot's tests only.
    expect(await violations('bot/wrong.ts', use('../server/test/testApp.ts'))).toEqual([
      'import-x/no-restricted-paths',
    ]);
    expect(await violations('bot/right.test.ts', use('../server/test/testApp.ts'))).toEqual([]);
  });

  it('finds an import circle', async () => {
    const dir = mkdtempSync(path.join(root, 'server', 'cycle-'));
    made.push(dir);
    writeFileSync(path.join(dir, 'a.ts'), "import { b } from './b.ts';\nexport const a = (): number => b() + 1;\n");
    writeFileSync(
      path.join(dir, 'b.ts'),
      "import { a } from './a.ts';\nexport const b = (): number => 2;\nexport const c = (): number => a();\n",
    );
    const results = await eslint.lintFiles([path.join(dir, 'a.ts'), path.join(dir, 'b.ts')]);
    expect(results.flatMap((r) => r.messages.map((m) => m.ruleId))).toEqual(['iskra/no-cycle', 'iskra/no-cycle']);
  });

  it('finds an import circle made of type-only imports', async () => {
    // import-x/no-cycle skips `import type`; emails.ts ⇄ worker.ts was such a circle, unseen.
    const dir = mkdtempSync(path.join(root, 'server', 'cycle-'));
    made.push(dir);
    writeFileSync(path.join(dir, 'a.ts'), "import type { B } from './b.ts';\nexport interface A { b: B }\n");
    writeFileSync(
      path.join(dir, 'b.ts'),
      "import { type A } from './a.ts';\nexport interface B { a?: A }\nexport const b = 1;\n",
    );
    writeFileSync(path.join(dir, 'c.ts'), "export type { A } from './a.ts';\n");
    writeFileSync(path.join(dir, 'd.ts'), "import type { C } from './e.ts';\nexport type D = C;\n");
    writeFileSync(path.join(dir, 'e.ts'), "export type { D } from './d.ts';\nexport type C = string;\n");
    const results = await eslint.lintFiles(['a.ts', 'b.ts', 'c.ts', 'd.ts', 'e.ts'].map((f) => path.join(dir, f)));
    const byFile = Object.fromEntries(results.map((r) => [path.basename(r.filePath), r.messages.map((m) => m.ruleId)]));
    expect(byFile).toEqual({
      'a.ts': ['iskra/no-cycle'],
      'b.ts': ['iskra/no-cycle'],
      // c.ts only points into the circle: not part of it.
      'c.ts': [],
      // A re-export of a type is an edge too.
      'd.ts': ['iskra/no-cycle'],
      'e.ts': ['iskra/no-cycle'],
    });
  });
});
