/**
 * The compiled server that `npm start` runs (scripts/start.mjs, built by scripts/buildServer.mjs), built into
 * a folder of this test's own: it runs on plain node without tsx or any other dev dependency, finds the files
 * its sources read beside themselves (the default photo, the city data set, the built front end, a migration's
 * data), and is built again only when a source changed.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client.ts';
import { createMigrator } from '../db/migrate.ts';
import { Browser, json } from '../server/test/browser.ts';
import { ServerProcess } from '../server/test/serverProcess.ts';
import {
  buildServer,
  bundledPackages,
  ensureServerBuilt,
  entries,
  outputFile,
  root,
  serverNodeFlags,
  staleReason,
} from './buildServer.mjs';

const moscowId = 524901;

describe('the compiled server', () => {
  // Beside .build/, at the same depth: the compiled files import their packages from the checkout's
  // node_modules, and a path taken relative to the compiled file would miss the sources as it would there.
  const outdir = path.join(root, `.build-test-${randomUUID()}`);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'iskra-compiled-'));
  let built: Awaited<ReturnType<typeof buildServer>>;
  const processes: ServerProcess[] = [];

  beforeAll(async () => {
    built = await buildServer(outdir);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.kill()));
    rmSync(outdir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is not built again while nothing changed, and is once a source is newer than the build', async () => {
    const main = outputFile('main', outdir);
    const before = statSync(main).mtimeMs;
    const said: string[] = [];
    expect(staleReason(outdir)).toBeUndefined();
    expect(await ensureServerBuilt(outdir, (line) => said.push(line))).toBeUndefined();
    expect(said).toEqual([]);
    expect(statSync(main).mtimeMs).toBe(before);
    // A build asked for other entries (the tests' own, server/test/compiledCommands.ts) is not this one.
    expect(staleReason(outdir, { ...entries, worker: 'server/test/notificationWorkerProcess.ts' })).toBe(
      'worker.mjs was not built from server/test/notificationWorkerProcess.ts',
    );
    expect(staleReason(outdir, { ...entries, main: 'scripts/job.ts' })).toBe(
      'main.mjs was not built from scripts/job.ts',
    );

    // As if every source had been saved after the build (a git pull, an edit): the manifest dates the build.
    const manifest = path.join(outdir, 'manifest.json');
    const longAgo = new Date('2020-01-01T00:00:00Z');
    utimesSync(manifest, longAgo, longAgo);
    expect(staleReason(outdir)).toMatch(/changed$/);
    expect(await ensureServerBuilt(outdir, (line) => said.push(line))).toMatch(/changed$/);
    expect(said.join('\n')).toContain('building it');
    expect(staleReason(outdir)).toBeUndefined();
  }, 120_000);

  it('imports no package outside `dependencies`, so `npm ci --omit=dev` runs it', () => {
    const { dependencies } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const packages = new Set<string>();
    for (const output of Object.values(built.metafile.outputs)) {
      for (const { path: specifier, external } of output.imports) {
        if (!external || specifier.startsWith('node:') || builtinModules.includes(specifier)) continue;
        packages.add(
          specifier.startsWith('@')
            ? specifier.split('/').slice(0, 2).join('/')
            : (specifier.split('/')[0] ?? specifier),
        );
      }
    }
    expect(packages.size).toBeGreaterThan(10);
    expect([...packages].filter((name) => !(name in dependencies))).toEqual([]);
    expect(packages).not.toContain('tsx');
  });

  it('names every source location as the source file, never as the compiled one', () => {
    // The entries and the files split off them (code loaded with import(), code the entries share).
    const outputs = Object.keys(built.metafile.outputs).filter((file) => file.endsWith('.mjs'));
    expect(outputs.length).toBeGreaterThanOrEqual(Object.keys(entries).length);
    for (const output of outputs) {
      const code = readFileSync(path.resolve(root, output), 'utf8');
      expect(code.match(/import\.meta\.(url|dirname)\b/g) ?? [], output).toEqual([]);
    }
    expect(
      outputs.some((output) =>
        readFileSync(path.resolve(root, output), 'utf8').includes(JSON.stringify(path.join(root, 'server'))),
      ),
    ).toBe(true);
  });

  it('writes only ASCII, so V8 holds each compiled file at one byte a character', () => {
    // One character beyond ASCII (a regular expression literal: esbuild escapes strings, not those) would
    // double the memory a whole file's text takes for as long as the server runs.
    for (const output of Object.keys(built.metafile.outputs).filter((file) => file.endsWith('.mjs'))) {
      const code = readFileSync(path.resolve(root, output), 'utf8');
      const beyond = /[\u0080-\uffff]/.exec(code);
      expect(beyond && code.slice(Math.max(0, beyond.index - 40), beyond.index + 10), output).toBeNull();
    }
  });

  it('compiles kysely and jose in, so the server does not load their hundreds of files one by one', () => {
    const imported = Object.values(built.metafile.outputs).flatMap((output) =>
      output.imports.filter((i) => i.external).map((i) => i.path),
    );
    for (const name of bundledPackages) expect(imported.filter((specifier) => specifier.startsWith(name))).toEqual([]);
    const inputs = Object.keys(built.metafile.inputs);
    for (const name of bundledPackages)
      expect(
        inputs.some((file) => file.includes(`node_modules/${name}/`)),
        name,
      ).toBe(true);
  });

  it('leaves grammY out of what the server loads at start: only a running bot imports it', () => {
    const main = Object.entries(built.metafile.outputs).find(([, output]) => output.entryPoint === entries.main);
    expect(main).toBeDefined();
    // Every file main.mjs loads before it runs: its static imports, followed through the split files.
    const loaded = new Set<string>();
    const visit = (file: string) => {
      if (loaded.has(file)) return;
      loaded.add(file);
      for (const { path: imported, kind, external } of built.metafile.outputs[file]?.imports ?? []) {
        if (kind === 'import-statement' && !external) visit(imported);
      }
    };
    visit(main?.[0] ?? '');
    const packages = [...loaded].flatMap((file) =>
      (built.metafile.outputs[file]?.imports ?? [])
        .filter((i) => i.external && i.kind === 'import-statement')
        .map((i) => i.path),
    );
    expect(packages).toContain('koa');
    for (const lazy of ['grammy', '@aws-sdk/client-s3', 'sharp', 'nodemailer'])
      expect(packages, lazy).not.toContain(lazy);
  });

  it('migrates with plain node, then serves health, the default photo, a translation, a city check and the app', async () => {
    // A database from before the place id migration, whose backfill reads the city data set beside the migration.
    const handle = openDatabase({ dataDir });
    try {
      await createMigrator(handle.db).migrateTo('2026_11_24_1230_session_devices');
      const now = new Date().toISOString();
      const user = await handle.db
        .insertInto('users')
        .values({
          email: 'compiled@example.com',
          password_hash: null,
          language: 'ru',
          verified_at: now,
          banned_at: null,
          created_at: now,
          premium_until: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await handle.db
        .insertInto('profiles')
        .values({
          user_id: user.id,
          name: 'P',
          age: 30,
          gender: 'Female',
          preferred_gender: 'Male',
          bio: '',
          city: 'Москва',
          created_at: now,
          updated_at: now,
        })
        .execute();
    } finally {
      await handle.db.destroy();
    }
    const env = { DATA_DIR: dataDir, LOG_LEVEL: 'info' };
    const migrate = ServerProcess.node('migrate', [outputFile('migrate', outdir)], env);
    processes.push(migrate);
    expect(await migrate.exited, migrate.log()).toBe(0);
    expect(migrate.log()).toContain('2026_11_24_1410_city_place_ids');
    const migrated = openDatabase({ dataDir });
    try {
      expect(await migrated.db.selectFrom('profiles').select(['city', 'place_id']).execute()).toEqual([
        { city: 'Москва', place_id: moscowId },
      ]);
    } finally {
      await migrated.db.destroy();
    }

    const server = ServerProcess.node('server', [...serverNodeFlags, outputFile('main', outdir)], {
      ...env,
      PORT: '0',
      HOST: '127.0.0.1',
      CRON: 'off',
    });
    processes.push(server);
    const url = `http://127.0.0.1:${await server.listeningPort()}`;
    const browser = new Browser(url);

    expect(await json(await browser.get('/api/health'))).toMatchObject({ status: 'ok', database: 'ok' });

    const photo = await browser.get('/api/uploads/default.jpg');
    expect(photo.status).toBe(200);
    expect(
      Buffer.from(await photo.arrayBuffer()).equals(readFileSync(path.join(root, 'server', 'assets', 'default.jpg'))),
    ).toBe(true);

    expect(
      (await browser.post('/api/register', { email: `compiled-${randomUUID()}@example.com`, password: 'secret123!' }))
        .status,
    ).toBe(201);
    // A translated text: the dictionaries are read from locales/*.json at the first translation (locales/index.ts).
    expect(await json(await browser.get('/api/training'))).toMatchObject({ name: 'Алиса' });
    const city = await browser.post('/api/citycheck', { citycheck: 'москва' });
    expect(city.status).toBe(200);
    expect(await json(city)).toMatchObject({ city: 'Москва', place_id: moscowId });

    // The front end is looked for in the checkout's miniapp/dist, built or not.
    const dist = path.join(root, 'miniapp', 'dist');
    if (existsSync(path.join(dist, 'index.html'))) {
      const page = await browser.get('/');
      expect(page.status).toBe(200);
      expect(await page.text()).toBe(readFileSync(path.join(dist, 'index.html'), 'utf8'));
    } else {
      expect(await server.waitForLine((line) => line.msg?.startsWith('no built front end') === true)).toMatchObject({
        frontendDist: dist,
      });
    }
  }, 120_000);

  it('starts the long-running server with its node flags wherever it is started', () => {
    expect(serverNodeFlags.length).toBeGreaterThan(0);
    const flags = serverNodeFlags.join(' ');
    const scripts = (
      JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    expect(scripts.start).toBe(`node ${flags} scripts/start.mjs`);
    expect(scripts.demo).toBe(`node ${flags} scripts/start.mjs demo`);
    for (const unit of ['iskra-web@.service', 'iskra-worker.service']) {
      const text = readFileSync(path.join(root, 'deploy', 'systemd', unit), 'utf8');
      expect(/^ExecStart=.*$/m.exec(text)?.[0]).toMatch(new RegExp(`/usr/bin/node ${flags} scripts/start\\.mjs$`));
    }
  });
});
