import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { systemClock } from './clock.ts';
import { pair } from './features/relationships/repository.ts';
import { createPerson, type Person } from './test/people.ts';
import { freePort } from './test/freePort.ts';
import { compiledArgs } from './test/compiledCommands.ts';

const root = path.resolve(import.meta.dirname, '..');
async function startServer(dataDir: string, port: number) {
  let output = '';
  const child = spawn(process.execPath, await compiledArgs('main'), {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SESSION_SECRET: 'crash-test-secret-that-is-long-enough-0000',
      CRON: 'off',
    },
  });
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  return { child, output: () => output };
}

async function waitUntilUp(url: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ok = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error('server did not start');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('a crash in the middle of a write burst (SQLite)', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'iskra-crash-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('loses no acknowledged like or message, and the database passes its integrity check after SIGKILL', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    // People, their sessions and some matches with conversations, made before the server starts.
    const handle = openDatabase({ dataDir });
    await migrateToLatest(handle.db);
    const host = { database: { db: handle.db }, clock: systemClock, url };
    const people: Person[] = [];
    for (let i = 0; i < 16; i++)
      people.push(await createPerson(host, { gender: i % 2 === 0 ? 'Male' : 'Female', name: `Crash${i}` }));
    const conversations: { id: number; sender: Person }[] = [];
    for (let i = 0; i + 1 < people.length; i += 2) {
      const [a, b] = [people[i] as Person, people[i + 1] as Person];
      const now = new Date().toISOString();
      const { low, high } = pair(a.profileId, b.profileId);
      const match = await handle.db
        .insertInto('matches')
        .values({ profile_low: low, profile_high: high, created_at: now, unmatched_at: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      const conversation = await handle.db
        .insertInto('conversations')
        .values({ match_id: match.id, created_at: now, last_message_at: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      conversations.push({ id: conversation.id, sender: a }, { id: conversation.id, sender: b });
    }
    await handle.db.destroy();

    const server = await startServer(dataDir, port);
    try {
      await waitUntilUp(url);
      const acknowledgedLikes: [number, number][] = [];
      const acknowledgedMessages: string[] = [];
      let killed = false;
      let interrupted = 0;
      // Each person keeps writing (likes to everyone of the other gender, messages in their conversation)
      // until the server dies under them; only answers that arrived with 2xx are counted.
      const worker = async (index: number) => {
        const me = people[index] as Person;
        const targets = people.filter((p, i) => i % 2 !== index % 2);
        const mine = conversations.find((c) => c.sender === me);
        for (let round = 0; !killed && round < 200; round++) {
          try {
            const target = targets[round % targets.length] as Person;
            if (round < targets.length) {
              const res = await me.browser.post('/api/like', { profile_id: target.profileId });
              if (res.ok) acknowledgedLikes.push([me.profileId, target.profileId]);
            } else if (mine) {
              const content = `crash-${index}-${round}`;
              const res = await me.browser.post(`/api/conversations/${mine.id}/messages`, { content });
              if (res.ok) acknowledgedMessages.push(content);
            }
          } catch {
            interrupted += 1; // the connection died with the server
            return;
          }
        }
      };
      const burst = Promise.all(people.map((_, i) => worker(i)));
      await new Promise<void>((resolve) => {
        const check = setInterval(() => {
          if (acknowledgedLikes.length + acknowledgedMessages.length >= 60) {
            clearInterval(check);
            resolve();
          }
        }, 5);
      });
      const exited = once(server.child, 'exit');
      killed = true;
      // No chance to clean up.
      process.kill(server.child.pid ?? 0, 'SIGKILL');
      await exited;
      await burst;
      // Requests were in flight when it died: the crash came mid-burst, not after it.
      expect(interrupted).toBeGreaterThan(0);
      expect(acknowledgedLikes.length + acknowledgedMessages.length).toBeGreaterThanOrEqual(60);

      const sqlite = new SQLite(path.join(dataDir, 'iskra.sqlite'));
      try {
        expect(sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
        const like = sqlite.prepare('select liked from swipes where swiper_id = ? and target_id = ?');
        for (const [from, to] of acknowledgedLikes)
          expect(like.get(from, to), `like ${from} -> ${to}`).toEqual({ liked: 1 });
        const message = sqlite.prepare('select count(*) as n from messages where content = ?');
        for (const content of acknowledgedMessages) expect(message.get(content), content).toEqual({ n: 1 });
      } finally {
        sqlite.close();
      }

      // And the server starts again on the same data and serves it.
      const again = await startServer(dataDir, port);
      try {
        await waitUntilUp(url);
        const res = await (people[0] as Person).browser.get('/api/matches');
        expect(res.status).toBe(200);
      } finally {
        again.child.kill('SIGTERM');
        await once(again.child, 'exit');
      }
    } finally {
      if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    }
  }, 180_000);
});
