/**
 * An Iskra server of some checkout on its own fresh PostgreSQL database with the HTTP bench's rows, for the
 * benches that put servers side by side (http.ts, peer.ts): the database made, migrated by that checkout's
 * own `scripts/migrate.ts`, given the rows (benchHttpData.ts), the server started as `npm start` runs it,
 * and a CSRF token fetched for its POSTs.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { withAdminClient } from '../server/test/testDatabase.ts';
import { startServer, stopServer, type StartedServer } from './benchCrowd.ts';
import { loadHttpBenchData, type HttpBenchData } from './benchHttpData.ts';

/** Runs a checkout's own script (its migrations, say) with only the environment given, and waits for it. */
export async function runScript(checkout: string, script: string, env: Record<string, string>): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: checkout,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`${script} in ${checkout} failed:\n${output}`);
}

/** The CSRF cookie and token a cookie-authenticated POST carries. */
export async function csrfOf(url: string): Promise<{ cookie: string; token: string }> {
  const res = await fetch(`${url}/api/csrf_token`);
  const cookie =
    res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0] ?? '')
      .find((c) => c.includes('iskra_csrf')) ?? '';
  const { csrf_token } = (await res.json()) as { csrf_token: string };
  return { cookie, token: csrf_token };
}

export interface IskraServer {
  server: StartedServer;
  csrf: { cookie: string; token: string };
  /** Stops the server, drops its database and removes its data folder. */
  stop(): Promise<void>;
}

/** `database`: a name of its own on the PostgreSQL of `pgUrl` (created here, dropped by stop). */
export async function startIskra(
  checkout: string,
  pgUrl: string,
  database: string,
  data: HttpBenchData,
  /** More environment for the server (NODE_OPTIONS, say). */
  env: Record<string, string> = {},
): Promise<IskraServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'iskra-bench-'));
  const url = new URL(pgUrl);
  url.pathname = `/${database}`;
  const databaseUrl = url.toString();
  await withAdminClient(pgUrl, (c) => c.query(`create database ${database}`));
  const drop = async () => {
    await withAdminClient(pgUrl, (c) => c.query(`drop database if exists ${database} with (force)`));
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await runScript(checkout, 'scripts/migrate.ts', { DATABASE_URL: databaseUrl, DATA_DIR: dataDir });
    await loadHttpBenchData(databaseUrl, data);
    const server = await startServer(
      {
        DATABASE_URL: databaseUrl,
        DATA_DIR: dataDir,
        SESSION_SECRET: 'http-bench-secret-http-bench-secret-0000',
        LOG_LEVEL: 'warn',
        ...env,
      },
      checkout,
    );
    return {
      server,
      csrf: await csrfOf(server.url),
      stop: async () => {
        await stopServer(server.child);
        await drop();
      },
    };
  } catch (error) {
    await drop();
    throw error;
  }
}
