/**
 * `npm run bench` (issue 23): does a second web process add throughput? On one PostgreSQL schema, migrated
 * once with `scripts/migrate.ts` as deploy/ does, two real `ROLE=web` processes start; the same mixed load as
 * load.ts (search, like, message, own profile, match's profile; benchCrowd.ts) runs through a small
 * round-robin balancer (roundRobinProxy.ts, its own process) first with one process behind it, then with
 * both. Each run has its own freshly seeded crowd, so neither inherits the other's spent daily limits.
 * Prints requests a second, p50 and p99 side by side with the ratio two / one, and the CPU each part used:
 * on a small machine PostgreSQL, the load generator, the balancer and the web processes share the cores,
 * so the ratio is bounded by what is left for the second process.
 *
 * Usage: `npm run bench scale`; PostgreSQL from TEST_DATABASE_URL, else DATABASE_URL (skipped,
 * said so, when neither is set or it does not answer). SCALE_SECONDS (12), SCALE_CLIENTS (120),
 * SCALE_THINK_MS (10: 0 to 20 ms between actions). Figures only: nothing here is asserted in tests.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../db/client.ts';
import { S3StandIn } from '../server/test/s3StandIn.ts';
import { ServerProcess } from '../server/test/serverProcess.ts';
import { withAdminClient } from '../server/test/testDatabase.ts';
import { headline, line } from './benchKit.ts';
import {
  cpuSecondsOf,
  overall,
  pgAnswers,
  printRouteTable,
  runCrowd,
  seedCrowd,
  startServer,
  stopServer,
  type StartedServer,
} from './benchCrowd.ts';

const seconds = Number(process.env.SCALE_SECONDS ?? 12);
const clientCount = Number(process.env.SCALE_CLIENTS ?? 120);
const thinkMs = Number(process.env.SCALE_THINK_MS ?? 10);
const warmupSeconds = 2;
const cores = availableParallelism();

const pgUrl = [process.env.TEST_DATABASE_URL, process.env.DATABASE_URL].find(
  (url) => url && /^postgres(ql)?:\/\//.test(url),
);
console.log(`\nScale: one web process against two behind a round-robin balancer (PostgreSQL), ${cores} cores`);
if (!pgUrl) {
  console.log('skipped: several web processes need PostgreSQL (set TEST_DATABASE_URL or DATABASE_URL to postgres://…)');
  process.exit(0);
}
if (!(await pgAnswers(pgUrl))) {
  console.log(`skipped: nothing answers at ${new URL(pgUrl).host}`);
  process.exit(0);
}

/** The balancer in its own process, so it does not take the load generator's event loop. */
async function startBalancer(targets: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = fork(path.join(import.meta.dirname, 'roundRobinProxy.ts'), targets, { stdio: 'inherit' });
  process.once('exit', () => child.kill('SIGKILL'));
  const [message] = (await once(child, 'message')) as [{ url: string }];
  return { child, url: message.url };
}

const schema = `iskra_scale_${randomBytes(4).toString('hex')}`;
const sessionSecret = 'scale-bench-secret-scale-bench-secret-00';
const dataDirs: string[] = [];
const dataDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'iskra-scale-'));
  dataDirs.push(dir);
  return dir;
};
const webs: StartedServer[] = [];
const balancers: ChildProcess[] = [];
// ROLE=web requires a bucket (photos on one process's disk would not be served by the other): a local one.
const s3 = new S3StandIn();
// Ctrl-C ends the script through 'exit', so the child processes are stopped too.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

try {
  await withAdminClient(pgUrl, (c) => c.query(`create schema ${schema}`));
  const migrate = await ServerProcess.start('migrate', 'migrate', {
    DATABASE_URL: pgUrl,
    DATABASE_SCHEMA: schema,
    DATA_DIR: dataDir(),
  });
  if ((await migrate.exited) !== 0) throw new Error(`migration failed:\n${migrate.log()}`);
  await s3.start();
  const bucket = await s3.bucket();
  const photoBucket = {
    S3_BUCKET: bucket.bucket,
    S3_ENDPOINT: s3.endpoint,
    S3_ACCESS_KEY_ID: bucket.accessKeyId,
    S3_SECRET_ACCESS_KEY: bucket.secretAccessKey,
    S3_FORCE_PATH_STYLE: 'true',
  };
  const webEnv = () => ({
    ROLE: 'web',
    DATABASE_URL: pgUrl,
    DATABASE_SCHEMA: schema,
    SESSION_SECRET: sessionSecret,
    DATA_DIR: dataDir(),
    LOG_LEVEL: 'warn',
    ...photoBucket,
  });
  webs.push(...(await Promise.all([startServer(webEnv()), startServer(webEnv())])));
  const [webA, webB] = webs as [StartedServer, StartedServer];
  const setups = [
    { name: 'one web process', targets: [webA] },
    { name: 'two web processes', targets: [webA, webB] },
  ];
  line(
    'setup',
    `schema ${schema} migrated by scripts/migrate.ts; ROLE=web processes; both runs through the same balancer (1 or 2 targets)`,
  );
  line(
    'load',
    `${clientCount} signed-in clients per run (own crowd each, 10% premium), load.ts's mix, think time 0-${2 * thinkMs} ms, ${seconds} s measured after ${warmupSeconds} s`,
  );
  line(
    'machine',
    `${cores} cores shared by PostgreSQL, the load generator, the balancer and the web processes (load average ${loadavg()[0]?.toFixed(1)}): on 2 cores expect two/one of about 1x to 1.6x, not 2x`,
  );
  const handle = openDatabase({ url: pgUrl, dataDir: dataDir(), searchPath: schema, poolSize: 4 });
  const results = [];
  try {
    for (const setup of setups) {
      const balancer = await startBalancer(setup.targets.map((t) => t.url));
      balancers.push(balancer.child);
      const clients = await seedCrowd(handle.db, balancer.url, {
        clients: clientCount,
        premiumEvery: 10,
        earlierMessages: 0,
      });
      const pids = [...setup.targets.map((t) => t.child.pid), balancer.child.pid];
      let cpuBefore: (number | undefined)[] = [];
      let ownBefore = process.cpuUsage();
      const { stats, wall } = await runCrowd(clients, {
        warmupSeconds,
        seconds,
        thinkMs,
        onMeasureStart: () => {
          cpuBefore = pids.map(cpuSecondsOf);
          ownBefore = process.cpuUsage();
        },
      });
      const cpu = pids.map((pid, i) => (cpuSecondsOf(pid) ?? Number.NaN) - (cpuBefore[i] ?? Number.NaN));
      const own = process.cpuUsage(ownBefore);
      console.log(`\n${setup.name}`);
      printRouteTable(stats, wall);
      line(
        'CPU over the run (s)',
        `web ${cpu
          .slice(0, -1)
          .map((c) => c.toFixed(1))
          .join(
            ' + ',
          )}, balancer ${cpu.at(-1)?.toFixed(1)}, load generator ${((own.user + own.system) / 1e6).toFixed(1)}, wall ${wall.toFixed(1)}`,
      );
      results.push({ name: setup.name, ...overall(stats, wall) });
      balancer.child.disconnect();
      await once(balancer.child, 'exit');
    }
  } finally {
    await handle.db.destroy();
  }
  const [one, two] = results;
  if (one && two) {
    console.log(
      `\n${''.padEnd(20)} ${'one process'.padStart(12)} ${'two processes'.padStart(14)} ${'two / one'.padStart(10)}`,
    );
    const row = (label: string, a: number, b: number, digits: number) =>
      console.log(
        `${label.padEnd(20)} ${a.toFixed(digits).padStart(12)} ${b.toFixed(digits).padStart(14)} ${`${(b / a).toFixed(2)}x`.padStart(10)}`,
      );
    row('requests/s', one.perSecond, two.perSecond, 0);
    row('p50 ms', one.p50, two.p50, 1);
    row('p99 ms', one.p99, two.p99, 1);
    // Higher is better here: what the second process adds, on the cores left to it.
    headline({
      measure: 'requests a second, two web processes / one',
      ratio: two.perSecond / one.perSecond,
      floor: 'one web process behind the same balancer',
      value: `${one.perSecond.toFixed(0)} → ${two.perSecond.toFixed(0)} req/s; p99 ${one.p99.toFixed(1)} → ${two.p99.toFixed(1)} ms`,
    });
    line('429 (limits) / errors', `one ${one.refused} / ${one.errors}, two ${two.refused} / ${two.errors}`);
    line('server error log lines', webs.map((w) => w.errorLines()).join(' + '));
  }
} finally {
  for (const balancer of balancers) if (balancer.connected) balancer.disconnect();
  await Promise.all(webs.map((w) => stopServer(w.child)));
  await s3.stop();
  await withAdminClient(pgUrl, (c) => c.query(`drop schema if exists ${schema} cascade`));
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
}
