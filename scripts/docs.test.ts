import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The README is a manual and docs/ holds the rest (CONTRIBUTING.md): these keep it so as the code moves on.
const root = path.resolve(import.meta.dirname, '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const folders = (dir: string) =>
  readdirSync(path.join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

/** Made at run time or by tools, never part of the project. */
// Generated and ignored by git (.gitignore): `npm start` leaves `.build/`, the tests `.build-test-*/`.
const notOurs = new Set(['.git', 'node_modules', 'data', 'artifacts', 'coverage', '.test-data', 'dist', '.build']);

/** The Markdown files whose links must hold: the manual, the contributors' page, docs/ and the folder READMEs. */
function markdownFiles(): string[] {
  const docs = readdirSync(path.join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`);
  return [
    'README.md',
    'CONTRIBUTING.md',
    ...docs,
    ...['bot', 'miniapp', 'deploy'].map((dir) => `${dir}/README.md`).filter((f) => existsSync(path.join(root, f))),
  ];
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsIn(markdown: string): Set<string> {
  return new Set(
    withoutFences(markdown)
      .split('\n')
      .filter((line) => /^#{1,6}\s/.test(line))
      .map((line) => anchorOf(line.replace(/^#+\s+/, ''))),
  );
}

/** Fenced blocks hold examples, not headings or links. */
const withoutFences = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, '');

/** Inline code holds examples too (a heading keeps its code's text: anchorOf drops only the backticks). */
const withoutCode = (markdown: string) => withoutFences(markdown).replace(/`[^`\n]*`/g, '');

/** Every relative link target of a Markdown file: [text](target), without web or mail addresses. */
function relativeLinks(markdown: string): string[] {
  return [...withoutCode(markdown).matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g)]
    .map((m) => m[1] ?? '')
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

describe('the README', () => {
  it('is a manual of at most 200 lines', () => {
    const lines = read('README.md').split('\n').length;
    expect(lines, `README.md has ${lines} lines: move the detail to docs/`).toBeLessThanOrEqual(200);
  });

  it('keeps the commands a newcomer needs', () => {
    const readme = read('README.md');
    for (const command of [
      'npm install && npm start',
      'npm test',
      'npm run demo',
      'TEST_DATABASE_URL=',
      'docs/ARCHITECTURE.md',
    ]) {
      expect(readme).toContain(command);
    }
  });

  it('names every variable server/env.ts reads in its configuration table', () => {
    const names = [...read('server/env.ts').matchAll(/^ {4}([A-Z][A-Z0-9_]+): /gm)].map((m) => m[1] ?? '');
    expect(names.length).toBeGreaterThan(30);
    const table = read('README.md')
      .split('\n')
      .filter((line) => line.startsWith('|'))
      .join('\n');
    const missing = names.filter((name) => !table.includes(`\`${name}\``));
    expect(missing, `add them to the README's configuration table`).toEqual([]);
  });
});

describe('docs/ARCHITECTURE.md', () => {
  const architecture = read('docs/ARCHITECTURE.md');
  const named = (folder: string) => architecture.includes(`\`${folder}\``) || architecture.includes(`\`${folder}/\``);

  it('names every top-level folder', () => {
    const missing = folders('.').filter(
      (name) => !notOurs.has(name) && !name.startsWith('.build-test-') && !named(name),
    );
    expect(missing).toEqual([]);
  });

  it('names every feature under server/features/, and every folder of server/, bot/ and miniapp/src/', () => {
    const missing = [
      ...folders('server/features'),
      ...folders('server').filter((name) => name !== 'features'),
      ...folders('bot'),
      ...folders('miniapp/src'),
    ].filter((name) => !named(name));
    expect(missing).toEqual([]);
    expect(folders('server/features').length).toBeGreaterThan(20);
  });
});

describe('links in the README and docs/', () => {
  it('point to files that exist, and to headings that exist in them', () => {
    const broken: string[] = [];
    for (const file of markdownFiles()) {
      for (const link of relativeLinks(read(file))) {
        const [target = '', anchor] = link.split('#');
        const resolved =
          target === ''
            ? path.join(root, file)
            : path.resolve(path.dirname(path.join(root, file)), decodeURIComponent(target));
        if (!existsSync(resolved)) broken.push(`${file}: ${link} (no such file)`);
        else if (anchor && statSync(resolved).isFile() && !anchorsIn(readFileSync(resolved, 'utf8')).has(anchor)) {
          broken.push(`${file}: ${link} (no such heading)`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('finds a broken link when there is one (the check itself works)', () => {
    expect(relativeLinks('[a](docs/x.md) [b](https://example.com) `[c](not/a/link.md)` [d](#top)')).toEqual([
      'docs/x.md',
      '#top',
    ]);
    expect(anchorOf('Photos in object storage')).toBe('photos-in-object-storage');
    expect(anchorOf('data: the data layer against raw SQL')).toBe('data-the-data-layer-against-raw-sql');
    expect(anchorsIn('# A\n```\n# not a heading\n```\n## B `c`').has('b-c')).toBe(true);
  });

  it('point only to the benches where they now live (bench/, not scripts/bench-*)', () => {
    const stale = markdownFiles().filter((file) =>
      /scripts\/bench|scripts\/benchKit|scripts\/roundRobinProxy/.test(
        read(file).replace(/`scripts\/bench-\*\.ts`/g, ''),
      ),
    );
    expect(stale).toEqual([]);
  });
});
