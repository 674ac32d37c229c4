/**
 * The open-source peer fglsn/matcha (Express and raw `pg`) for the benches that put Iskra beside it (peer.ts,
 * memory.ts): the HTTP bench's people copied into the peer's own schema, and the peer started as its
 * `npm start` runs it. The peer is never built into this project: docs/benchmarks.md (section peer) says how
 * to build it in a scratch folder.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { freePort } from '../server/test/freePort.ts';
import type { HttpBenchData } from './benchHttpData.ts';

type Row = Record<string, unknown>;
export const tableOf = (data: HttpBenchData, name: string): Row[] => data.tables.find(([t]) => t === name)?.[1] ?? [];

/** The peer's user name for a profile id (its sign-in takes a user name, Iskra's an e-mail). */
export const peerUsername = (id: number) => `user${String(id)}`;

/**
 * A bcrypt hash of `password` made by the peer's own bcrypt with its own cost (10, `saltRounds` in its
 * services/users.ts), so its sign-in does the work it does in production.
 */
export function peerPasswordHash(dir: string, password: string): string {
  const run = spawnSync(
    process.execPath,
    ['-e', `process.stdout.write(require('bcrypt').hashSync(process.argv[1], 10))`, password],
    { cwd: dir, encoding: 'utf8' },
  );
  if (run.status !== 0 || !run.stdout.startsWith('$2')) throw new Error(`the peer's bcrypt failed: ${run.stderr}`);
  return run.stdout;
}

export interface PeerDataOptions {
  /** Users who get a session (their id → session token in the answer); the likers of `data.likes` when unset. */
  sessionsFor?: Iterable<number>;
  /** Users who can sign in with the password of this bcrypt hash (the rest cannot: 'not used'). */
  passwords?: { userIds: ReadonlySet<number>; hash: string };
}

/**
 * The same people in the peer's schema (its own migration, `migrations/sqls/*-up.sql`): a user per profile
 * with the same id, complete (the peer refuses likes between incomplete profiles), one photo each, its
 * likes_history from the likes among the swipes, its matches, and a session for every liker (or for
 * `options.sessionsFor`).
 */
export async function loadPeerData(
  client: pg.Client,
  dir: string,
  data: HttpBenchData,
  options: PeerDataOptions = {},
): Promise<Map<number, string>> {
  const sqlDir = path.join(dir, 'migrations', 'sqls');
  for (const file of readdirSync(sqlDir)
    .filter((f) => f.endsWith('-up.sql'))
    .sort())
    await client.query(readFileSync(path.join(sqlDir, file), 'utf8'));
  const insert = async (table: string, rows: Row[]) => {
    for (let i = 0; i < rows.length; i += 5000)
      await client.query(`insert into ${table} select * from json_populate_recordset(null::${table}, $1::json)`, [
        JSON.stringify(rows.slice(i, i + 5000)),
      ]);
  };
  const users = new Map(tableOf(data, 'users').map((u) => [u.id as number, u]));
  const year = new Date().getUTCFullYear();
  await insert(
    'users',
    tableOf(data, 'profiles').map((p) => ({
      id: p.id,
      username: peerUsername(p.id as number),
      email: (users.get(p.user_id as number)?.email as string | undefined) ?? `user${String(p.id)}@example.com`,
      password_hash: options.passwords?.userIds.has(p.id as number) ? options.passwords.hash : 'not used',
      firstname: p.name,
      lastname: 'Bench',
      lat: p.latitude ?? 0,
      lon: p.longitude ?? 0,
      location_string: p.city ?? '',
      is_active: true,
      created_at: new Date().toISOString(),
      activation_code: `code${String(p.id)}`,
      birthday: `${year - Number(p.age)}-06-01`,
      gender: p.gender === 'Female' ? 'female' : 'male',
      orientation: 'straight',
      bio: p.bio ?? 'bio',
      tags: ['music'],
      is_complete: true,
      reports_count: 0,
      fame_rating: 40,
    })),
  );
  await client.query(`select setval(pg_get_serial_sequence('users', 'id'), (select max(id) + 1 from users), false)`);
  await insert(
    'photos',
    tableOf(data, 'photos').map((ph) => ({
      id: ph.id,
      photo_type: 'image/jpeg',
      photo: String(ph.file_name),
      user_id: ph.profile_id,
    })),
  );
  await insert(
    'likes_history',
    tableOf(data, 'swipes')
      .filter((s) => s.liked === 1)
      .map((s) => ({ liked_user_id: s.target_id, liking_user_id: s.swiper_id })),
  );
  await insert(
    'matches',
    tableOf(data, 'matches').map((m) => ({
      match_id: m.id,
      matched_user_one: m.profile_low,
      matched_user_two: m.profile_high,
    })),
  );
  await client.query(
    `select setval(pg_get_serial_sequence('matches', 'match_id'), (select coalesce(max(match_id), 0) + 1 from matches), false)`,
  );
  const sessions = new Map<number, string>();
  const rows: Row[] = [];
  for (const userId of new Set(options.sessionsFor ?? data.likes.map((l) => l.userId))) {
    const id = randomUUID();
    sessions.set(userId, id);
    rows.push({
      session_id: id,
      user_id: userId,
      username: peerUsername(userId),
      email: 'x',
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
    });
  }
  await insert('user_sessions', rows);
  await client.query('analyze');
  return sessions;
}

/**
 * The peer as its `npm start` runs it (`node build/index.js`), on a free port and its own database of the
 * PostgreSQL at `pgUrl` (its pool takes the host's port from DB_PORT and the database from DB_NAME).
 */
export async function startPeer(
  dir: string,
  database: string,
  pgUrl: string,
): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const { port: dbPort } = new URL(pgUrl);
  const child = spawn(process.execPath, ['build/index.js'], {
    cwd: dir,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      PORT: String(port),
      DB_NAME: database,
      DB_PORT: dbPort || '5432',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const killPeer = () => child.kill('SIGKILL');
  process.once('exit', killPeer);
  child.once('exit', () => process.off('exit', killPeer));
  let tail = '';
  const keep = (chunk: Buffer) => (tail = (tail + chunk.toString()).slice(-4000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the peer exited: ${tail}`);
    // Any answer means it listens (the route wants a session: 401).
    if (await fetch(`${url}/api/users/1/like`).catch(() => undefined)) break;
    if (Date.now() - started > 60_000) throw new Error(`the peer did not start: ${tail}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { child, url };
}
