import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// The commit-msg hook and the prepare step that installs it, run as git and npm run them: real processes
// on real files, in folders of their own.
const root = path.resolve(import.meta.dirname, '..');
const hook = path.join(root, '.githooks/commit-msg');
const work = mkdtempSync(path.join(tmpdir(), 'iskra-hook-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let files = 0;
function runHook(message: string): { status: number | null; stderr: string } {
  const file = path.join(work, `message-${++files}`);
  writeFileSync(file, message);
  const result = spawnSync(hook, [file], { encoding: 'utf8' });
  return { status: result.status, stderr: result.stderr };
}

// Without GIT_DIR and its kind: run from inside a git hook, they would point these commands at our own repository.
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('GIT_')));

function git(cwd: string, ...args: string[]) {
  return spawnSync('git', ['-c', 'user.name=Hook Test', '-c', 'user.email=hook@example.com', ...args], {
    cwd,
    env,
    encoding: 'utf8',
  });
}

describe('the commit-msg hook', () => {
  it('accepts a subject of up to 72 characters, with a body of any length', () => {
    expect(
      runHook('Discovery: the next card reads its photos in one query\n\n' + 'why '.repeat(60) + '\n').status,
    ).toBe(0);
    expect(runHook(`${'x'.repeat(72)}\n`).status).toBe(0);
  });

  it('refuses a subject longer than 72 characters and says so', () => {
    const result = runHook(`${'x'.repeat(73)}\n\nbody\n`);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('73 characters');
  });

  it('counts characters, not bytes: 72 Cyrillic letters pass, 73 do not', () => {
    expect(runHook(`${'я'.repeat(72)}\n`).status).toBe(0);
    expect(runHook(`${'я'.repeat(73)}\n`).status).toBe(1);
  });

  it('refuses an empty subject: nothing, blank lines or only comments', () => {
    expect(runHook('').status).toBe(1);
    expect(runHook('\n   \n\n').status).toBe(1);
    const result = runHook('# Please enter the commit message for your changes.\n#\n');
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('no subject');
  });

  it('reads the subject past leading blank lines and comments, as git does', () => {
    expect(runHook(`\n# a comment\n\nShort subject\n`).status).toBe(0);
    expect(runHook(`# a comment\n${'x'.repeat(80)}\n`).status).toBe(1);
  });
});

describe('npm prepare (scripts/install-hooks.sh)', () => {
  const prepare = (cwd: string) =>
    spawnSync('sh', [path.join(root, 'scripts/install-hooks.sh')], { cwd, env, encoding: 'utf8' });
  /** A copy of the project's hook folder in a fresh folder, as a clone or a tarball would have it. */
  const project = (name: string, withGit: boolean) => {
    const dir = path.join(work, name);
    mkdirSync(dir, { recursive: true });
    cpSync(path.join(root, '.githooks'), path.join(dir, '.githooks'), { recursive: true });
    if (withGit) expect(git(dir, 'init', '-q').status).toBe(0);
    return dir;
  };

  it('in a clone, points git at .githooks, and git then refuses a long subject', () => {
    const dir = project('clone', true);
    expect(prepare(dir).status).toBe(0);
    expect(git(dir, 'config', 'core.hooksPath').stdout.trim()).toBe('.githooks');
    writeFileSync(path.join(dir, 'a.txt'), 'a\n');
    expect(git(dir, 'add', 'a.txt').status).toBe(0);
    const refused = git(dir, 'commit', '-q', '-m', 'y'.repeat(73));
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain('at most 72');
    expect(git(dir, 'commit', '-q', '-m', 'Add a').status).toBe(0);
  });

  it('without git (an unpacked tarball), succeeds and does nothing', () => {
    const dir = project('tarball', false);
    const result = prepare(dir);
    expect(result.status).toBe(0);
    expect(result.stderr).toBe('');
  });

  it("inside somebody else's repository, leaves that repository's settings alone", () => {
    const outer = path.join(work, 'outer');
    mkdirSync(outer);
    expect(git(outer, 'init', '-q').status).toBe(0);
    const inner = path.join(outer, 'vendor', 'iskra');
    mkdirSync(inner, { recursive: true });
    cpSync(path.join(root, '.githooks'), path.join(inner, '.githooks'), { recursive: true });
    expect(prepare(inner).status).toBe(0);
    expect(git(outer, 'config', 'core.hooksPath').stdout.trim()).toBe('');
  });
});
