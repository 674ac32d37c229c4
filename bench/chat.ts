/**
 * Chat: listing the last 20 messages through the repository (Kysely) against the raw SQL on the same
 * SQLite connection, and send-to-delivery latency over Server-Sent Events: the time from starting
 * POST /api/conversations/{id}/messages to the event arriving on the recipient's open stream, with
 * 1,000 other idle streams connected (goal: p99 <= 15 ms on loopback).
 */
import path from 'node:path';
import { sql } from 'kysely';
import { createApp } from '../server/app.ts';
import { pageOfMessages } from '../server/features/chat/repository.ts';
import { pair } from '../server/features/relationships/repository.ts';
import { createLogger } from '../server/logger.ts';
import { EventStreamClient } from '../server/test/eventStream.ts';
import { createTestDatabase } from '../server/test/testDatabase.ts';
import { hashSessionId, newSessionId } from '../server/features/sessions/sessionIds.ts';
import { Browser } from '../server/test/browser.ts';
import { line, listen, ratioLine, summary, time } from './benchKit.ts';
import type { UserId, ProfileId } from '../db/schema.ts';

const idleStreams = Number(process.env.BENCH_IDLE_STREAMS ?? 1000);
const database = await createTestDatabase('sqlite');
const db = database.db;
const app = await listen(
  createApp({
    db,
    dialect: 'sqlite',
    databaseProbe: database.probe,
    logger: createLogger('silent'),
    mailer: { send: () => Promise.resolve() },
    uploadsDir: path.join(database.dataDir, 'uploads'),
    publicUrl: 'http://localhost:8080',
    sessionSecret: 'bench-secret-bench-secret-bench-secret',
  }),
);

const now = new Date().toISOString();
const later = new Date(Date.now() + 86_400_000).toISOString();
/** A verified, premium (no message limit) person with a profile and a session cookie. */
async function person(i: number): Promise<{ profileId: ProfileId; userId: UserId; cookie: string }> {
  const user = await db
    .insertInto('users')
    .values({
      email: `c${i}@example.com`,
      password_hash: null,
      language: 'ru',
      verified_at: now,
      banned_at: null,
      created_at: now,
      premium_until: later,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const profile = await db
    .insertInto('profiles')
    .values({
      user_id: user.id,
      name: `P${i}`,
      age: 30,
      gender: i % 2 ? 'Male' : 'Female',
      preferred_gender: 'Any',
      bio: '',
      city: '',
      latitude: 55.75,
      longitude: 37.61,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const sessionId = newSessionId();
  await db
    .insertInto('sessions')
    .values({ id_hash: hashSessionId(sessionId), user_id: user.id, created_at: now, expires_at: later })
    .execute();
  return { profileId: profile.id, userId: user.id, cookie: `iskra_session=${sessionId}` };
}

const sender = await person(0);
const receiver = await person(1);
const match = await db
  .insertInto('matches')
  .values({ profile_low: sender.profileId, profile_high: receiver.profileId, created_at: now, unmatched_at: null })
  .returning('id')
  .executeTakeFirstOrThrow();
const conversation = await db
  .insertInto('conversations')
  .values({ match_id: match.id, created_at: now, last_message_at: now })
  .returning('id')
  .executeTakeFirstOrThrow();
await db
  .insertInto('messages')
  .values(
    Array.from({ length: 1000 }, (_, i) => ({
      conversation_id: conversation.id,
      sender_id: i % 2 ? sender.profileId : receiver.profileId,
      content: `message number ${i} with some ordinary text`,
      created_at: now,
      read_at: now,
    })),
  )
  .execute();

console.log(`\nChat: one conversation of 1,000 messages; ${idleStreams} idle event streams`);
const raw = sql<{
  id: number;
}>`select id, sender_id, content, created_at from messages where conversation_id = ${conversation.id} order by id desc limit 20`;
const repo: number[] = [];
const bare: number[] = [];
for (let i = 0; i < 2200; i++) {
  const a = await time(() => pageOfMessages(db, conversation.id, 20));
  const b = await time(() => raw.execute(db));
  if (i >= 200) {
    repo.push(a);
    bare.push(b);
  }
}
const r = summary('last 20 messages (repository, Kysely)', repo);
const s = summary('last 20 messages (raw SQL)', bare);
ratioLine('ratio repository / raw SQL', r, s, {
  measure: 'last 20 messages, repository (SQLite)',
  floor: 'the same page as raw SQL',
});

const idle: EventStreamClient[] = [];
for (let i = 0; i < idleStreams; i++) {
  const p = await person(100 + i);
  idle.push(await EventStreamClient.open(`${app.url}/api/events`, { Cookie: p.cookie }));
}
const stream = await EventStreamClient.open(`${app.url}/api/events`, { Cookie: receiver.cookie });
// Ten senders in turn: one sender may send only 30 messages a minute.
const senders: { browser: Browser; conversationId: number }[] = [];
for (let i = 0; i < 10; i++) {
  const other = i === 0 ? sender : await person(10 + i);
  const conversationId =
    i === 0
      ? conversation.id
      : (
          await db
            .insertInto('conversations')
            .values({
              match_id: (
                await db
                  .insertInto('matches')
                  .values({
                    profile_low: pair(other.profileId, receiver.profileId).low,
                    profile_high: pair(other.profileId, receiver.profileId).high,
                    created_at: now,
                    unmatched_at: null,
                  })
                  .returning('id')
                  .executeTakeFirstOrThrow()
              ).id,
              created_at: now,
              last_message_at: null,
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
  const browser = new Browser(app.url);
  browser.setCookie('iskra_session', other.cookie.slice('iskra_session='.length));
  await browser.csrfToken();
  senders.push({ browser, conversationId });
}
const latencies: number[] = [];
for (let i = 0; i < 230; i++) {
  const content = `ping ${i}`;
  const { browser, conversationId } = senders[i % senders.length] ?? {
    browser: new Browser(app.url),
    conversationId: 0,
  };
  const started = performance.now();
  const arrived = stream.waitFor((e) => (e.data as { content?: string }).content === content);
  const res = await browser.post(`/api/conversations/${conversationId}/messages`, { content });
  if (res.status !== 201) throw new Error(`send failed: ${res.status} ${await res.text()}`);
  await arrived;
  if (i >= 30) latencies.push(performance.now() - started);
}
summary(`send -> SSE delivery (${idleStreams} idle streams)`, latencies);
line(
  '  memory',
  `RSS ${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MiB with ${idleStreams + 1} open streams (client and server in one process)`,
);

for (const client of [...idle, stream]) client.close();
app.close();
await database.drop();
