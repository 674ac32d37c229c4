/**
 * The production commands, run as compiled JavaScript with plain `node` (no tsx):
 *   node scripts/start.mjs                 npm start: the server
 *   node scripts/start.mjs demo            npm run demo: demo data, then the server
 *   node scripts/start.mjs <command> …     admin, job, migrate, set-webhook, seed-demo (npm run admin -- …)
 *   node scripts/start.mjs build           npm run build: compiles the server and builds the front end, always
 * Each first compiles the server into .build/ when that is missing or older than its sources
 * (scripts/buildServer.mjs), and the server's commands build the front end when it is missing or stale
 * (scripts/ensure-frontend.ts), so `npm install && npm start` stays two commands on a fresh clone.
 */
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { buildServer, ensureServerBuilt, outputFile, root } from './buildServer.mjs';

/**
 * `run`: the compiled entry (scripts/buildServer.mjs) that the command is; `frontend`: build the front end
 * first when it is stale; `before`: entries run first, each in a process of its own, as `a && b` would.
 * @type {Record<string, { run: string, frontend?: boolean, before?: string[] }>}
 */
const commands = {
  start: { run: 'main', frontend: true },
  demo: { run: 'demo', frontend: true, before: ['seed-demo'] },
  admin: { run: 'admin' },
  job: { run: 'job' },
  migrate: { run: 'migrate' },
  'set-webhook': { run: 'setWebhook' },
  'seed-demo': { run: 'seed-demo' },
};

/**
 * Runs a compiled entry in a process of its own; exits with its code when it fails.
 * @param {string} name
 * @param {string[]} [args]
 */
function runApart(name, args = []) {
  const { status, signal } = spawnSync(process.execPath, ['--enable-source-maps', outputFile(name), ...args], {
    stdio: 'inherit',
  });
  if (status !== 0) process.exit(status ?? (signal ? 1 : 0));
}

/**
 * Vite builds in a process of its own: the server started next need not carry Vite and Rolldown in its
 * memory. The check alone is a few file dates, made here without starting another Node.
 * @param {boolean} force
 */
async function ensureFrontend(force) {
  if (!force) {
    /** @type {unknown} */
    const compiled = await import(pathToFileURL(outputFile('ensure-frontend')).href);
    const { frontendIsStale } = /** @type {typeof import('./ensure-frontend.ts')} */ (compiled);
    if (!frontendIsStale()) return;
  }
  runApart('ensure-frontend', force ? ['--force'] : []);
}

/**
 * A checkout owned by another user (a root-owned /opt/iskra, a read-only image) cannot build at start.
 * @param {unknown} error
 * @returns {never}
 */
function explainUnwritable(error) {
  const code = error instanceof Error && 'code' in error ? error.code : undefined;
  if (typeof code !== 'string' || !['EACCES', 'EPERM', 'EROFS'].includes(code)) throw error;
  console.error(
    `Cannot write the compiled server (${code}): run \`npm run build\` as the owner of ${root} after updating it.`,
  );
  process.exit(1);
}

const [name = 'start', ...args] = process.argv.slice(2);

if (name === 'build') {
  const { ms } = await buildServer().catch(explainUnwritable);
  console.log(`Server built into .build in ${ms} ms`);
  await ensureFrontend(true);
} else {
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!command) {
    console.error(`usage: node scripts/start.mjs [${['build', ...Object.keys(commands)].join(' | ')}] [arguments…]`);
    process.exit(64);
  }
  await ensureServerBuilt().catch(explainUnwritable);
  if (command.frontend) await ensureFrontend(false);
  for (const step of command.before ?? []) runApart(step);
  // The command itself runs in this process (one Node, and the server gets the signals npm or systemd sends).
  // It sees the command line it would have as `node .build/<entry>.mjs …` (its arguments, process.argv[1]).
  const file = outputFile(command.run);
  process.setSourceMapsEnabled(true);
  process.argv = [process.execPath, file, ...args];
  await import(pathToFileURL(file).href);
}
