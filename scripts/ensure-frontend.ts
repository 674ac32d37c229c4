/**
 * Run before `npm start`: builds the front end (miniapp/dist) when it is missing or older than any of its
 * sources (miniapp/src, miniapp/public, index.html, the Vite config and its plugins, locales, the shared contract), so
 * `npm install && npm start` on a fresh clone serves the app. `--force` always builds (`npm run build`).
 * `npm start` runs it compiled (scripts/start.mjs): it calls frontendIsStale() itself and runs this file only to build.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const miniapp = path.join(root, 'miniapp');
const distIndex = path.join(miniapp, 'dist', 'index.html');
/**
 * What the build reads. The build's own code is every file at the top of miniapp/ beside the Vite config
 * (its plugins, the service worker's template), listed when asked, so a plugin added later is never left
 * out (a change to bootScriptPlugin.ts once left a stale dist).
 */
export function frontendSources(): string[] {
  const buildCode = readdirSync(miniapp)
    .filter((name) => /\.(ts|js|mjs)$/.test(name))
    .map((name) => path.join(miniapp, name));
  return [
    path.join(miniapp, 'src'),
    path.join(miniapp, 'public'),
    path.join(miniapp, 'index.html'),
    ...buildCode,
    path.join(root, 'locales'),
    path.join(root, 'server', 'contract'),
    path.join(root, 'package-lock.json'),
  ];
}

/** The newest modification time under a file or folder. */
function newest(target: string): number {
  if (!existsSync(target)) return 0;
  const info = statSync(target);
  if (!info.isDirectory()) return info.mtimeMs;
  return readdirSync(target).reduce((max, name) => Math.max(max, newest(path.join(target, name))), info.mtimeMs);
}

export function frontendIsStale(): boolean {
  if (!existsSync(distIndex)) return true;
  const built = statSync(distIndex).mtimeMs;
  return frontendSources().some((source) => newest(source) > built);
}

export async function buildFrontend(): Promise<void> {
  // Imported here, not at the top: `npm start` (scripts/start.mjs) loads this file for frontendIsStale() at
  // every start, and Vite takes a moment to load that a start with the front end already built never needs.
  const { build } = await import('vite');
  // Always React's production build, also when called from vitest (which sets NODE_ENV=test).
  const previous = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      configFile: path.join(miniapp, 'vite.config.ts'),
      root: miniapp,
      mode: 'production',
      logLevel: 'warn',
    });
  } finally {
    if (previous === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = previous;
  }
}

if (import.meta.filename === process.argv[1] || process.argv[1]?.endsWith('ensure-frontend.ts')) {
  const force = process.argv.includes('--force');
  if (force || frontendIsStale()) {
    const started = performance.now();
    console.log(force ? 'Building the front end…' : 'The front end is missing or stale: building it…');
    await buildFrontend();
    console.log(`Front end built into miniapp/dist in ${Math.round(performance.now() - started)} ms`);
  }
}
