/**
 * The data of the HTTP bench (http.ts): the discovery data set (discoveryDataSet.ts) at 10,000
 * profiles, with 100 heavy swipers who have swiped everyone in their city (so everyone within 25 km), plus
 * what the HTTP routes need: a session per user, passwords for the sign-in accounts, conversations with
 * messages for live matches, and pairs that may like each other. Rows are made once in memory and copied
 * into each server's own PostgreSQL database after that server's own migrations ran, keeping only the
 * columns its schema has, so two commits with different migrations get the same people, swipes and chats.
 */
import path from 'node:path';
import { hash } from '@node-rs/argon2';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { argon2Options } from '../server/features/accounts/passwords.ts';
import { hashSessionId, newSessionId } from '../server/features/sessions/sessionIds.ts';
import { ensureDataSet, random as seededRandom, type DataSetSize } from './discoveryDataSet.ts';

export const httpDataSetSize: DataSetSize = {
  profiles: 10_000,
  swipes: 350_000,
  heavyUsers: 100,
  heavySwipes: 3_000,
  blocks: 200,
};
export const benchPassword = 'bench-http-password-1';

type Row = Record<string, unknown>;

export interface HttpBenchData {
  /** Table rows in foreign-key order. */
  tables: [string, Row[]][];
  /** Session cookie value per user id (profile id = user id in the data set). */
  sessionOf: Map<number, string>;
  /** GET /api/search paths with each person's own preference and an age range around their own. */
  normalSearches: { userId: number; path: string }[];
  heavySearches: { userId: number; path: string }[];
  likes: { userId: number; target: number }[];
  chats: { userId: number; conversationId: number }[];
  logins: string[];
  /** How many people of their city the heavy swipers have not swiped (0: they swiped everyone). */
  heavyUnswiped: number;
}

interface ProfileRow {
  id: number;
  user_id: number;
  age: number;
  gender: string;
  preferred_gender: string;
  city: string;
  private_mode: number;
  banned: number;
}

export async function makeHttpBenchData(dir: string, log: (message: string) => void): Promise<HttpBenchData> {
  const built = await ensureDataSet(dir, httpDataSetSize, log);
  const sqlite = new SQLite(built.file, { readonly: true });
  try {
    const all = (table: string) => sqlite.prepare(`select * from ${table}`).all() as Row[];
    const users = all('users');
    const profiles = sqlite
      .prepare(
        'select p.id, p.user_id, p.age, p.gender, p.preferred_gender, p.city, p.private_mode, u.banned_at is not null as banned from profiles p join users u on u.id = p.user_id',
      )
      .all() as ProfileRow[];
    const swipes = all('swipes');
    const matches = all('matches');
    const blocks = all('blocks');
    const key = (a: number, b: number) => a * 2 ** 20 + b;
    const swiped = new Set(swipes.map((s) => key(s.swiper_id as number, s.target_id as number)));
    const blocked = new Set(
      blocks.flatMap((b) => [
        key(b.blocker_id as number, b.blocked_id as number),
        key(b.blocked_id as number, b.blocker_id as number),
      ]),
    );
    const heavy = new Set(built.info.heavy);
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString();

    const sessionOf = new Map<number, string>();
    const sessions: Row[] = [];
    for (const p of profiles) {
      if (p.banned) continue;
      const id = newSessionId();
      sessionOf.set(p.user_id, id);
      sessions.push({
        id_hash: hashSessionId(id),
        user_id: p.user_id,
        created_at: iso(now),
        expires_at: iso(now + 30 * 86_400_000),
      });
    }

    // Seeded, so every run and both servers get the same pairs.
    const random = seededRandom(20261124);
    const usable = profiles.filter((p) => !p.banned && !heavy.has(p.id));
    const searchPath = (p: ProfileRow) =>
      `/api/search?ageMin=${Math.max(18, p.age - 5)}&ageMax=${Math.min(100, p.age + 7)}&gender=${p.preferred_gender}`;
    const normalSearches = usable.slice(0, 300).map((p) => ({ userId: p.user_id, path: searchPath(p) }));
    const heavySearches = profiles
      .filter((p) => heavy.has(p.id))
      .map((p) => ({ userId: p.user_id, path: searchPath(p) }));

    // Likes the swipe rules accept: a neighbour not swiped yet, not blocked either way, visible, whose
    // preference admits the swiper. At most 20 per swiper, far below the free daily limit of 50.
    const byCity = new Map<string, ProfileRow[]>();
    for (const p of usable) byCity.set(p.city, [...(byCity.get(p.city) ?? []), p]);
    const likes: { userId: number; target: number }[] = [];
    const taken = new Set<number>();
    for (const swiper of usable.slice(4000)) {
      const neighbours = byCity.get(swiper.city) ?? [];
      for (let tries = 0, made = 0; tries < 60 && made < 20; tries++) {
        const target = neighbours[Math.floor(random() * neighbours.length)];
        if (!target || target.id === swiper.id || target.private_mode) continue;
        if (target.preferred_gender !== 'Any' && target.preferred_gender !== swiper.gender) continue;
        const pair = key(swiper.id, target.id);
        if (swiped.has(pair) || blocked.has(pair) || taken.has(pair)) continue;
        taken.add(pair);
        likes.push({ userId: swiper.user_id, target: target.id });
        made++;
      }
    }
    // Interleaved swipers, so parallel likes seldom queue on one person's lock.
    likes.sort((a, b) => ((a.target * 7919 + a.userId) % 10007) - ((b.target * 7919 + b.userId) % 10007));

    // A chat page of 30 messages for each of the first 1,000 live matches, read by its lower profile.
    const conversations: Row[] = [];
    const messages: Row[] = [];
    const chats: { userId: number; conversationId: number }[] = [];
    const bannedIds = new Set(profiles.filter((p) => p.banned).map((p) => p.id));
    for (const m of matches) {
      if (conversations.length === 1000) break;
      const [low, high] = [m.profile_low as number, m.profile_high as number];
      if (m.unmatched_at !== null || bannedIds.has(low) || bannedIds.has(high) || blocked.has(key(low, high))) continue;
      const id = conversations.length + 1;
      const started = now - 86_400_000;
      conversations.push({ id, match_id: m.id, created_at: iso(started), last_message_at: iso(started + 30 * 60_000) });
      for (let n = 0; n < 30; n++)
        messages.push({
          conversation_id: id,
          sender_id: n % 2 ? low : high,
          content: `Сообщение ${n}: как прошёл день?`,
          created_at: iso(started + (n + 1) * 60_000),
          read_at: iso(started + (n + 1) * 60_000),
        });
      chats.push({ userId: low, conversationId: id });
    }

    // Sign-in accounts: one argon2id hash (the server's parameters) shared by 500 people.
    const passwordHash = await hash(benchPassword, argon2Options);
    const loginIds = new Set(usable.slice(0, 500).map((p) => p.user_id));
    const logins: string[] = [];
    for (const u of users)
      if (loginIds.has(u.id as number)) {
        u.password_hash = passwordHash;
        logins.push(u.email as string);
      }

    let heavyUnswiped = 0;
    for (const h of heavySearches) {
      const me = profiles.find((p) => p.id === h.userId);
      for (const other of profiles)
        if (me && other.city === me.city && other.id !== me.id && !swiped.has(key(me.id, other.id))) heavyUnswiped++;
    }

    return {
      tables: [
        ['users', users],
        ['profiles', all('profiles')],
        ['photos', all('photos')],
        ['swipes', swipes],
        ['matches', matches],
        ['blocks', blocks],
        ['conversations', conversations],
        ['messages', messages],
        ['sessions', sessions],
      ],
      sessionOf,
      normalSearches,
      heavySearches,
      likes,
      chats,
      logins,
      heavyUnswiped,
    };
  } finally {
    sqlite.close();
  }
}

/**
 * Copies the rows into a migrated database (its `public` schema), in the columns both have; triggers and
 * foreign-key checks are off for the copy (the rows are consistent and already carry their stamps), id
 * sequences are moved past the copied ids, and the planner gets fresh statistics.
 */
export async function loadHttpBenchData(databaseUrl: string, data: Pick<HttpBenchData, 'tables'>): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('set session_replication_role = replica');
    for (const [table, rows] of data.tables) {
      const first = rows[0];
      if (!first) continue;
      const { rows: columns } = await client.query<{ column_name: string }>(
        "select column_name from information_schema.columns where table_schema = 'public' and table_name = $1 and is_generated = 'NEVER'",
        [table],
      );
      const theirs = new Set(columns.map((c) => c.column_name));
      const shared = Object.keys(first).filter((c) => theirs.has(c));
      const list = shared.map((c) => `"${c}"`).join(', ');
      for (let i = 0; i < rows.length; i += 5000) {
        const batch = rows.slice(i, i + 5000).map((row) => Object.fromEntries(shared.map((c) => [c, row[c]])));
        await client.query(
          `insert into ${table} (${list}) select ${list} from json_populate_recordset(null::${table}, $1::json)`,
          [JSON.stringify(batch)],
        );
      }
      if (theirs.has('id'))
        await client.query(
          `select setval(seq, (select coalesce(max(id), 0) + 1 from ${table}), false) from pg_get_serial_sequence($1, 'id') as seq where seq is not null`,
          [table],
        );
    }
    await client.query('set session_replication_role = origin');
    await client.query('analyze');
  } finally {
    await client.end();
  }
}

export const benchDataDir = path.resolve(import.meta.dirname, '../data/bench');

/**
 * The same copy into a migrated SQLite file, for the HTTP bench's SQLite servers (`--sqlite`): the columns
 * both have, foreign-key checks off for the copy, in one transaction. The triggers run (SQLite cannot turn
 * them off for a session): they only stamp `search_changed_at`, as a live write would.
 */
export function loadHttpBenchDataSqlite(file: string, data: HttpBenchData): void {
  const sqlite = new SQLite(file);
  try {
    sqlite.pragma('foreign_keys = OFF');
    sqlite.transaction(() => {
      for (const [table, rows] of data.tables) {
        const first = rows[0];
        if (!first) continue;
        const theirs = new Set((sqlite.pragma(`table_info(${table})`) as { name: string }[]).map((c) => c.name));
        const shared = Object.keys(first).filter((c) => theirs.has(c));
        const insert = sqlite.prepare(
          `insert into ${table} (${shared.map((c) => `"${c}"`).join(', ')}) values (${shared.map(() => '?').join(', ')})`,
        );
        for (const row of rows) insert.run(shared.map((c) => row[c] ?? null));
      }
    })();
    sqlite.exec('analyze');
  } finally {
    sqlite.close();
  }
}
