/**
 * Compiles the server and the production commands from TypeScript to JavaScript with esbuild, so that
 * production runs plain `node` (no tsx, whose on-the-fly compilation of a few hundred files made a cold start
 * take seconds). Plain JavaScript on purpose: `npm start` (scripts/start.mjs) runs this before anything can be
 * compiled. Each entry becomes one self-contained file `<outdir>/<name>.mjs`; the packages under node_modules
 * stay imports (resolved from the checkout's node_modules, so the output folder must lie inside the checkout).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { threadId } from 'node:worker_threads';

export const root = path.resolve(import.meta.dirname, '..');
export const defaultOutdir = path.join(root, '.build');

/**
 * Node's flags for the long-running server, written where it starts (package.json's `start` and `demo`, the
 * systemd units; bench/benchCrowd.ts starts it with them too; scripts/start.test.ts checks they agree): they can
 * only be given to node (its command line or NODE_OPTIONS), not set from the started process. V8 grows the young generation to its
 * 32 MB maximum during the start (migration check, services) and never gives it back. Measured 29 November
 * 2026 (docs/benchmarks.md, memory): idle RSS of the compiled server on SQLite 114 MB with V8's default,
 * 110 MB with 8 MB semi-spaces, 100-107 MB with 4 (97-101 with 2); on PostgreSQL beside the peer, idle/peak
 * 100/138 MB with 8 and 94-97/129-133 MB with 4, CPU a request 0.60x the peer's with 8 and 0.64-0.72x with 4
 * (within the runs' noise).
 */
export const serverNodeFlags = ['--max-semi-space-size=4'];

/** The entries, by output name: the server and every command package.json runs in production. */
export const entries = {
  main: 'server/main.ts',
  'ensure-frontend': 'scripts/ensure-frontend.ts',
  admin: 'scripts/admin.ts',
  job: 'scripts/job.ts',
  migrate: 'scripts/migrate.ts',
  setWebhook: 'scripts/setWebhook.ts',
  'seed-demo': 'scripts/seed-demo.ts',
  demo: 'scripts/demo.ts',
};

/**
 * Packages compiled into the output instead of imported from node_modules at run time: ES modules spread over
 * many small files, each of which costs the running server its own module record, resolution cache entries
 * and source text (issue 41: memory). Kysely is 262 files and jose 46; bundled and minified they are one
 * chunk each of the output. Measured 29 November 2026 (docs/benchmarks.md, memory): the idle server's live
 * heap 22.5 MB with every package external, 19.7 MB with these two bundled (docs/benchmarks.md). zod is left out: bundled, its
 * namespaces (`z`, `core`, `locales`) become objects with a getter closure for every export, 2 MB more. A
 * CommonJS package cannot be bundled into this ES module output (its `require` of node's modules fails).
 */
export const bundledPackages = ['kysely', 'jose'];

/**
 * The package a bare import specifier names: `kysely/helpers/postgres` → `kysely`, `@koa/router` → itself.
 * @param {string} specifier
 */
function packageOf(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

/**
 * Every package stays an import (`packages: 'external'` would do that) except `bundledPackages`; node's own
 * modules stay imports too; a package's internal `#imports` and tsconfig.json's `paths` (`@contract/…`) are
 * resolved by esbuild.
 * @type {import('esbuild').Plugin}
 */
const externalPackages = {
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./#]/ }, (args) => {
      if (path.isAbsolute(args.path) || /^@(contract|locales)\//.test(args.path)) return undefined;
      if (!args.path.startsWith('node:') && bundledPackages.includes(packageOf(args.path))) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/**
 * Besides the bundled sources (listed by esbuild in the manifest), what the output depends on: this recipe,
 * the compiler settings esbuild reads, and the installed packages (the lockfile changes with them).
 */
const alwaysChecked = ['scripts/buildServer.mjs', 'tsconfig.json', 'package.json', 'package-lock.json'];

const manifestName = 'manifest.json';

/**
 * The file a compiled entry is written to.
 * @param {string} name
 * @param {string} [outdir]
 */
export function outputFile(name, outdir = defaultOutdir) {
  return path.join(outdir, `${name}.mjs`);
}

/**
 * Sources read files beside themselves (geocoder.ts its cities.json, photos/routes.ts the default photo,
 * composition.ts the built front end, a migration the city data set). In a bundle `import.meta.url` and
 * `import.meta.dirname` would name the output file in .build/, so each source gets its own original location
 * as a string instead, and every such path keeps pointing into the source tree. `import.meta.filename` stays
 * as it is: a script compares it with process.argv[1] to know whether it is the command being run.
 */
/** @type {import('esbuild').Plugin} */
const sourceLocations = {
  name: 'source-locations',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      const contents = text.replace(/\bimport\.meta\.(url|dirname)\b/g, (_, key) =>
        JSON.stringify(key === 'url' ? pathToFileURL(args.path).href : path.dirname(args.path)),
      );
      return { contents, loader: 'ts' };
    });
  },
};

/**
 * The manifest of the build in `outdir` (its date is the build's), or undefined when there is none.
 * @param {string} outdir
 * @returns {{ root: string, entries: Record<string, unknown>, inputs: string[], mtimeMs: number } | undefined}
 */
function readManifest(outdir) {
  const file = path.join(outdir, manifestName);
  try {
    /** @type {unknown} */
    const data = JSON.parse(readFileSync(file, 'utf8'));
    if (typeof data !== 'object' || data === null || !('root' in data) || !('inputs' in data)) return undefined;
    const { root, inputs } = data;
    const entries = 'entries' in data && typeof data.entries === 'object' && data.entries !== null ? data.entries : {};
    if (typeof root !== 'string' || !Array.isArray(inputs) || !inputs.every((input) => typeof input === 'string'))
      return undefined;
    return { root, entries: { ...entries }, inputs, mtimeMs: statSync(file).mtimeMs };
  } catch {
    // None yet, or half of one from a build that was cut off: build again.
    return undefined;
  }
}

/**
 * Why the build in `outdir` cannot be used as it is, or undefined when it can: an output is missing, the
 * checkout moved (the outputs hold absolute source paths), an entry was not built from the source named, or a
 * source it was built from changed or is gone.
 */
/**
 * @param {string} [outdir]
 * @param {Record<string, string>} [built] the entries the build holds (`entries`, or more: the tests' own)
 * @returns {string | undefined}
 */
export function staleReason(outdir = defaultOutdir, built = entries) {
  const manifest = readManifest(outdir);
  if (!manifest) return 'not built yet';
  if (manifest.root !== root) return `built for ${manifest.root}`;
  const moved = Object.entries(built).find(([name, source]) => manifest.entries[name] !== source);
  if (moved) return `${moved[0]}.mjs was not built from ${moved[1]}`;
  const missing = Object.keys(built).find((name) => !existsSync(outputFile(name, outdir)));
  if (missing) return `${missing}.mjs is missing`;
  for (const input of [...alwaysChecked, ...manifest.inputs]) {
    let info;
    try {
      info = statSync(path.join(root, input));
    } catch {
      return `${input} is gone`;
    }
    if (info.mtimeMs > manifest.mtimeMs) return `${input} changed`;
  }
  return undefined;
}

/**
 * Writes through a temporary file and a rename, so a process starting meanwhile reads a whole file.
 * @param {string} file
 * @param {string | Uint8Array} contents
 */
function writeWhole(file, contents) {
  // Per process and thread: builds may run at once into one folder (the tests' workers, compiledCommands.ts).
  const temporary = `${file}.${process.pid}-${threadId}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, file);
}

/**
 * Compiles every entry into `outdir`; returns how long it took (ms) and esbuild's account of the build.
 * @param {string} [outdir]
 * @param {Record<string, string>} [built] the entries to build, by output name (`entries`, or more)
 * @returns {Promise<{ ms: number, metafile: import('esbuild').Metafile }>}
 */
export async function buildServer(outdir = defaultOutdir, built = entries) {
  const started = Date.now();
  const esbuild = await import('esbuild');
  /** @type {import('esbuild').Metafile} */
  let metafile;
  try {
    const result = await esbuild.build({
      absWorkingDir: root,
      entryPoints: Object.fromEntries(Object.entries(built).map(([name, source]) => [name, path.join(root, source)])),
      outdir,
      outExtension: { '.js': '.mjs' },
      bundle: true,
      // Code loaded with import() (the bot, with grammY under it) becomes a file of its own, fetched only when
      // it runs: a separate bundle, not inlined, or its packages would load with the entry (issue 41: memory).
      splitting: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      // Errors keep their class names (pino logs them as the error's type) where the bundle would rename a clash.
      keepNames: true,
      // V8 keeps the text of every loaded file for as long as the process runs (it compiles a function from it
      // the first time it is called): without comments, indentation and long forms the compiled server's text
      // is 0.8 MB instead of 1.3 MB. Names stay (source maps and keepNames): stack traces read as before.
      minifyWhitespace: true,
      minifySyntax: true,
      // Stack traces name the TypeScript file and line (scripts/start.mjs turns source maps on).
      sourcemap: 'linked',
      sourcesContent: false,
      metafile: true,
      write: false,
      logLevel: 'warning',
      plugins: [sourceLocations, externalPackages],
    });
    mkdirSync(outdir, { recursive: true });
    // The shared chunks before the entries that import them: a process started from an entry meanwhile (a
    // build of another process into the same folder) finds every chunk it names. Earlier chunks stay.
    const entryFiles = new Set(Object.keys(built).map((name) => outputFile(name, outdir)));
    const outputs = [...result.outputFiles].sort(
      (a, b) => Number(entryFiles.has(a.path)) - Number(entryFiles.has(b.path)),
    );
    for (const file of outputs) writeWhole(file.path, file.contents);
    const inputs = Object.keys(result.metafile.inputs).sort();
    const manifest = path.join(outdir, manifestName);
    writeWhole(manifest, `${JSON.stringify({ root, entries: built, inputs }, null, 2)}\n`);
    // The build counts from its start: a source saved while it ran is newer, so the next start builds again.
    utimesSync(manifest, new Date(started), new Date(started));
    metafile = result.metafile;
  } finally {
    // esbuild's compiler is a child process: a server that built on its first start must not keep it.
    await esbuild.stop();
  }
  return { ms: Date.now() - started, metafile };
}

/**
 * Builds into `outdir` when the build there is missing or stale; returns the reason it built, or undefined.
 * @param {string} [outdir]
 * @param {(line: string) => void} [log]
 * @param {Record<string, string>} [built] the entries the build holds (`entries`, or more)
 * @returns {Promise<string | undefined>}
 */
export async function ensureServerBuilt(outdir = defaultOutdir, log = console.log, built = entries) {
  const reason = staleReason(outdir, built);
  if (!reason) return undefined;
  log(`The server's compiled code is stale (${reason}): building it…`);
  const { ms } = await buildServer(outdir, built);
  log(`Server built into ${path.relative(root, outdir) || '.'} in ${ms} ms`);
  return reason;
}
