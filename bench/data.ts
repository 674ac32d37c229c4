/**
 * `npm run bench` (data layer, issue 24 item 4): the repositories and services against raw SQL doing the
 * same work on the same data, on PostgreSQL (TEST_DATABASE_URL, else the local `test` database, in a schema
 * of its own; skipped when it does not answer) and on SQLite. Prints p50/p99, the ratio to raw and the
 * throughput of:
 *   - one profile by id: findVisibleProfile against the same SQL as a raw prepared statement (pg `query`
 *     with a name; better-sqlite3's prepare), goal <= 1.5x;
 *   - a chat page (ChatService.messages, 20 messages) against raw SQL: the membership and header, the
 *     page, marking read;
 *   - a like (SwipeService.swipe, a free user, no match) against raw SQL in one transaction: the target's
 *     visibility, the allowance count, the insert, the other side's swipe;
 * one at a time and 10 at once, and the SQL statements each makes (transaction control included). Short:
 * about 30 s for both databases. Figures only, never asserted.
 */
import pg from 'pg';
import type { Kysely } from 'kysely';
import type SQLite from 'better-sqlite3';
import type { Dialect } from '../db/client.ts';
import type { Database, ProfileId, UserId } from '../db/schema.ts';
import { StatementLog } from '../db/statementCounter.ts';
import { systemClock } from '../server/clock.ts';
import { ChatService } from '../server/features/chat/service.ts';
import { InProcessEventBus } from '../server/features/events/eventBus.ts';
import { NotificationQueue } from '../server/features/notifications/queue.ts';
import { RateCounter } from '../server/features/rateLimits/rateCounter.ts';
import { findVisibleProfile } from '../server/features/swipes/repository.ts';
import { SwipeService } from '../server/features/swipes/service.ts';
import { createPerson, type Person } from '../server/test/people.ts';
import { createTestDatabase, type TestDatabase } from '../server/test/testDatabase.ts';
import { line, ratioLine, summary } from './benchKit.ts';
import { createLogger } from '../server/logger.ts';

const pgUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const people = Number(process.env.BENCH_DATA_PEOPLE ?? 400);
const reads = Number(process.env.BENCH_DATA_READS ?? 2000);

/** Runs a statement the raw way: a pg named statement on a pool, or a better-sqlite3 prepared statement. */
interface Raw {
  all(name: string, text: string, values: unknown[]): Promise<Record<string, unknown>[]>;
  /** Statements in one transaction on one connection. */
  transaction<T>(work: (all: Raw['all']) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

function rawPostgres(url: string, schema: string): Raw {
  const pool = new pg.Pool({ connectionString: url, max: 5, options: `-c search_path=${schema}` });
  const on = (client: pg.Pool | pg.PoolClient) => async (name: string, text: string, values: unknown[]) =>
    (await client.query({ name, text, values })).rows as Record<string, unknown>[];
  return {
    all: on(pool),
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const result = await work(on(client));
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback');
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

function rawSqlite(sqlite: SQLite.Database): Raw {
  // The texts are written with PostgreSQL's `$n`; SQLite gets `?` and the values in the order they appear.
  const statements = new Map<string, { statement: SQLite.Statement; order: number[] }>();
  let queue: Promise<unknown> = Promise.resolve();
  const all = (_name: string, text: string, values: unknown[]) => {
    let entry = statements.get(text);
    if (!entry) {
      entry = {
        statement: sqlite.prepare(text.replace(/\$\d+/g, '?')),
        order: [...text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1]) - 1),
      };
      statements.set(text, entry);
    }
    const { statement, order } = entry;
    const bound = order.length > 0 ? order.map((i) => values[i]) : values;
    return Promise.resolve(
      statement.reader ? (statement.all(...bound) as Record<string, unknown>[]) : (statement.run(...bound), []),
    );
  };
  return {
    all,
    transaction<T>(work: (run: Raw['all']) => Promise<T>): Promise<T> {
      // One connection: transactions take turns, as the app's SQLite driver makes them.
      const run = queue.then(async () => {
        sqlite.prepare('begin immediate').run();
        try {
          const result = await work(all);
          sqlite.prepare('commit').run();
          return result;
        } catch (error) {
          sqlite.prepare('rollback').run();
          throw error;
        }
      });
      queue = run.catch(() => undefined);
      return run;
    },
    close: () => Promise.resolve(),
  };
}

async function timed<T>(items: readonly T[], run: (item: T) => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (const item of items) {
    const start = performance.now();
    await run(item);
    samples.push(performance.now() - start);
  }
  return samples;
}

/** Ours and raw in turns of a tenth each, so both see the same machine state (the machine is shared). */
async function interleaved<T, U>(
  ours: readonly T[],
  run: (item: T) => Promise<unknown>,
  theirs: readonly U[],
  runRaw: (item: U) => Promise<unknown>,
): Promise<[number[], number[]]> {
  const a: number[] = [];
  const b: number[] = [];
  for (let block = 0; block < 10; block++) {
    a.push(...(await timed(ours.slice((block * ours.length) / 10, ((block + 1) * ours.length) / 10), run)));
    b.push(...(await timed(theirs.slice((block * theirs.length) / 10, ((block + 1) * theirs.length) / 10), runRaw)));
  }
  return [a, b];
}

/** Requests a second with `parallel` callers working through `items`. */
async function throughput<T>(
  items: readonly T[],
  parallel: number,
  run: (item: T) => Promise<unknown>,
): Promise<number> {
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < items.length) await run(items[next++] as T);
    }),
  );
  return items.length / ((performance.now() - start) / 1000);
}

async function seed(database: TestDatabase) {
  const host = { database, clock: systemClock, url: 'http://127.0.0.1:1' };
  const men: Person[] = [];
  const women: Person[] = [];
  for (let i = 0; i < people / 2; i++) {
    men.push(await createPerson(host, { gender: 'Male' }));
    women.push(await createPerson(host, { gender: 'Female' }));
  }
  // Each man is matched with one woman in a conversation of 40 messages, half unread by him.
  const now = new Date();
  const conversations: { userId: UserId; profileId: ProfileId; conversation: number }[] = [];
  for (let i = 0; i < men.length; i++) {
    const [man, woman] = [men[i] as Person, women[i] as Person];
    const [low, high] =
      man.profileId < woman.profileId ? [man.profileId, woman.profileId] : [woman.profileId, man.profileId];
    const match = await database.db
      .insertInto('matches')
      .values({ profile_low: low, profile_high: high, created_at: now.toISOString(), unmatched_at: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    const conversation = await database.db
      .insertInto('conversations')
      .values({ match_id: match.id, created_at: now.toISOString(), last_message_at: now.toISOString() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await database.db
      .insertInto('messages')
      .values(
        Array.from({ length: 40 }, (_, n) => ({
          conversation_id: conversation.id,
          sender_id: n % 2 ? man.profileId : woman.profileId,
          content: `message ${n}`,
          created_at: now.toISOString(),
          read_at: n < 20 ? now.toISOString() : null,
        })),
      )
      .execute();
    conversations.push({ userId: man.userId, profileId: man.profileId, conversation: conversation.id });
  }
  return { men, women, conversations };
}

async function benchDialect(dialect: Dialect): Promise<void> {
  const log = new StatementLog();
  const database = await createTestDatabase(dialect, { onStatement: log.record });
  const raw =
    dialect === 'postgres'
      ? rawPostgres(database.url ?? pgUrl, database.schema ?? 'public')
      : rawSqlite(database.sqlite as SQLite.Database);
  try {
    const db: Kysely<Database> = database.db;
    const started = performance.now();
    const { men, women, conversations } = await seed(database);
    console.log(
      `\n${dialect}: ${people} people, ${conversations.length} conversations of 40 messages (seeded in ${((performance.now() - started) / 1000).toFixed(1)} s)`,
    );
    const bus = new InProcessEventBus();
    const notifications = new NotificationQueue();
    const chat = new ChatService(db, systemClock, new RateCounter(db, systemClock), bus, notifications);
    const swipes = new SwipeService(db, systemClock, bus, notifications, createLogger('silent'));

    // One profile by id: the repository's own SQL, run raw.
    const profileSql = db
      .selectFrom('profiles as p')
      .innerJoin('users as u', 'u.id', 'p.user_id')
      .select([
        'p.id',
        'p.user_id',
        'p.name',
        'p.age',
        'p.city',
        'p.place_id',
        'p.gender',
        'p.bio',
        'p.latitude',
        'p.longitude',
        'p.prompts',
        'p.active_at',
        'p.private_mode',
        'p.show_activity',
      ])
      .where('p.id', '=', 0 as ProfileId)
      .where('u.verified_at', 'is not', null)
      .where('u.banned_at', 'is', null)
      .compile().sql;
    const everyone = [...men, ...women];
    const ids = Array.from({ length: reads }, (_, i) => (everyone[(i * 7919) % everyone.length] as Person).profileId);
    const repoProfile = (id: ProfileId) => findVisibleProfile(db, id);
    const rawProfile = (id: ProfileId) => raw.all('bench_profile', profileSql, [id]);
    await timed(ids.slice(0, 300), repoProfile);
    await timed(ids.slice(0, 300), rawProfile);
    const [repoSamples, rawSamples] = await interleaved(ids, repoProfile, ids, rawProfile);
    console.log('One profile by id (goal: repository <= 1.5x raw)');
    ratioLine(
      'ratio repository / raw',
      summary('findVisibleProfile', repoSamples),
      summary('raw prepared statement', rawSamples),
      {
        measure: `one profile by id, repository (${dialect})`,
        floor: 'the same SQL as a raw prepared statement',
        goal: '<= 1.5x',
      },
    );

    // A chat page of 20: through the service, and raw as a hand-written back end would do it.
    const header = `select me.id as me_id, p.id, p.name, p.user_id, (select ph.file_name from photos ph where ph.profile_id = p.id order by ph.position limit 1) as photo
       from conversations c join matches m on m.id = c.match_id
       join profiles me on me.user_id = $1 and (me.id = m.profile_low or me.id = m.profile_high)
       join profiles p on p.id = case when m.profile_low = me.id then m.profile_high else m.profile_low end
       where c.id = $2 and m.unmatched_at is null
         and not exists (select 1 from blocks b where (b.blocker_id = m.profile_low and b.blocked_id = m.profile_high) or (b.blocker_id = m.profile_high and b.blocked_id = m.profile_low))`;
    const page =
      'select id, sender_id, content, created_at, read_at from messages where conversation_id = $1 order by id desc limit $2';
    const markRead =
      'update messages set read_at = $1 where conversation_id = $2 and sender_id <> $3 and read_at is null';
    const rawChatPage = async (c: (typeof conversations)[number]) => {
      const [head] = await raw.all('bench_header', header, [c.userId, c.conversation]);
      if (!head) throw new Error('no conversation');
      const rows = await raw.all('bench_page', page, [c.conversation, 20]);
      await raw.all('bench_read', markRead, [new Date().toISOString(), c.conversation, head.me_id]);
      return rows;
    };
    const serviceChatPage = (c: (typeof conversations)[number]) => chat.messages(c.userId, c.conversation, 20);
    const reading = await log.during(() => serviceChatPage(conversations[0] as (typeof conversations)[number]));
    const again = await log.during(() => serviceChatPage(conversations[0] as (typeof conversations)[number]));
    const pages = Array.from(
      { length: Math.floor(reads / 3) },
      (_, i) => conversations[i % conversations.length] as (typeof conversations)[number],
    );
    await timed(pages.slice(0, 200), serviceChatPage);
    await timed(pages.slice(0, 200), rawChatPage);
    console.log('Chat page of 20 messages');
    const [servicePages, rawPages] = await interleaved(pages, serviceChatPage, pages, rawChatPage);
    const servicePage = summary('ChatService.messages', servicePages);
    const rawPage = summary('raw SQL (header, page, mark read)', rawPages);
    ratioLine('ratio service / raw', servicePage, rawPage, {
      measure: `chat page of 20, ChatService (${dialect})`,
      floor: 'hand-written SQL: header, page, mark read',
    });
    line(
      'pages a second, 1 and 10 at once',
      `service ${(await throughput(pages, 1, serviceChatPage)).toFixed(0)} / ${(await throughput(pages, 10, serviceChatPage)).toFixed(0)}  raw ${(await throughput(pages, 1, rawChatPage)).toFixed(0)} / ${(await throughput(pages, 10, rawChatPage)).toFixed(0)}`,
    );
    line('statements per page (service)', `${again.length} (${reading.length} when it marks messages read)`);

    // A like by a free man of a woman who has not liked him: each pair once. Raw does the same checks.
    const target = `select p.id from profiles p join users u on u.id = p.user_id where p.id = $1 and u.verified_at is not null and u.banned_at is null
         and not exists (select 1 from blocks b where (b.blocker_id = $2 and b.blocked_id = p.id) or (b.blocked_id = $2 and b.blocker_id = p.id))`;
    const used = 'select count(*) as n from swipes where swiper_id = $1 and liked = 1 and created_at > $2';
    const insertLike =
      'insert into swipes (swiper_id, target_id, liked, created_at, target_seen) values ($1, $2, 1, $3, 0) on conflict (swiper_id, target_id) do nothing';
    const theirs = 'select liked from swipes where swiper_id = $1 and target_id = $2';
    const rawLike = ({ man, woman }: { man: Person; woman: Person }) =>
      raw.transaction(async (all) => {
        if ((await all('bench_target', target, [woman.profileId, man.profileId])).length === 0)
          throw new Error('not swipeable');
        await all('bench_used', used, [man.profileId, new Date(Date.now() - 86_400_000).toISOString()]);
        await all('bench_like', insertLike, [man.profileId, woman.profileId, new Date().toISOString()]);
        return all('bench_theirs', theirs, [woman.profileId, man.profileId]);
      });
    const serviceLike = ({ man, woman }: { man: Person; woman: Person }) =>
      swipes.swipe(man.userId, woman.profileId, true);
    // Man i likes woman i + k (k >= 1: woman i is his match); 40 likes a man stay under the free 50.
    const likes = (from: number, count: number) =>
      Array.from({ length: count }, (_, n) => {
        const i = n % men.length;
        const k = from + Math.floor(n / men.length);
        return { man: men[i] as Person, woman: women[(i + k) % women.length] as Person };
      });
    const perRun = men.length * 3;
    const likeStatements = await log.during(() => serviceLike(likes(1, 1)[0] as { man: Person; woman: Person }));
    console.log('Like (a free user, no match)');
    const [serviceLikeSamples, rawLikeSamples] = await interleaved(
      likes(2, perRun),
      serviceLike,
      likes(6, perRun),
      rawLike,
    );
    const serviceLikes = summary('SwipeService.swipe', serviceLikeSamples);
    const rawLikes = summary('raw SQL in one transaction', rawLikeSamples);
    ratioLine('ratio service / raw', serviceLikes, rawLikes, {
      measure: `a like, SwipeService (${dialect})`,
      floor: 'hand-written SQL in one transaction',
    });
    line(
      'likes a second, 1 and 10 at once',
      `service ${(await throughput(likes(10, perRun), 1, serviceLike)).toFixed(0)} / ${(await throughput(likes(14, perRun), 10, serviceLike)).toFixed(0)}  raw ${(await throughput(likes(18, perRun), 1, rawLike)).toFixed(0)} / ${(await throughput(likes(22, perRun), 10, rawLike)).toFixed(0)}`,
    );
    line('statements per like (service)', String(likeStatements.length));
  } finally {
    await raw.close();
    await database.drop();
  }
}

console.log(`\nData layer bench, Node ${process.version}, ${new Date().toISOString()}`);
const probe = new pg.Client({ connectionString: pgUrl, connectionTimeoutMillis: 3000 });
const pgUp = await probe.connect().then(
  () => true,
  () => false,
);
await probe.end().catch(() => undefined);
if (pgUp) {
  process.env.TEST_DATABASE_URL = pgUrl;
  await benchDialect('postgres');
} else console.log(`\npostgres: ${pgUrl} does not answer, skipped`);
await benchDialect('sqlite');
