import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserId } from '../../../db/schema.ts';
import { createLogger } from '../../logger.ts';
import { createTestDatabase, withAdminClient, type TestDatabase } from '../../test/testDatabase.ts';
import { noticeChannel, quotedChannel } from './noticeChannels.ts';
import { PostgresEventBus } from './postgresEventBus.ts';

const url = process.env.TEST_DATABASE_URL;

/**
 * What only the NOTIFY path has: its payloads as processes of the earlier version (one NOTIFY per publish, a
 * bare list of ids) send and read them during a rolling deploy, and notices it cannot read. Delivery,
 * batching, sweeps and reconnection on both paths: fanout.test.ts.
 */
describe.runIf(url)('the PostgreSQL event bus', () => {
  let database: TestDatabase;
  let schema: string;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    schema = database.schema ?? 'public';
  });
  afterAll(async () => {
    await database.drop();
  });
  const start = () => PostgresEventBus.start(database.url ?? '', schema, createLogger('silent'));

  it('still hears a bare list of ids, as a process of the earlier version sends it during a rolling deploy', async () => {
    const receiver = await start();
    try {
      const woken = new Promise<void>((resolve) => receiver.subscribe(3_000_001 as UserId, () => resolve()));
      await withAdminClient(database.url ?? '', (client) =>
        client.query('select pg_notify($1, $2)', [noticeChannel('events', schema), '3000000,3000001']),
      );
      await expect(woken).resolves.toBeUndefined();
    } finally {
      await receiver.close();
    }
  });

  it('wakes every user of its doorbell in a process of the earlier version, which reads the list as ids only', async () => {
    const sender = await start();
    const earlier = new pg.Client({ connectionString: database.url });
    await earlier.connect();
    try {
      const heard = new Promise<string[]>((resolve) =>
        earlier.on('notification', (m) => resolve((m.payload ?? '').split(','))),
      );
      await earlier.query(`LISTEN ${quotedChannel(noticeChannel('events', schema))}`);
      await sender.publish([42 as UserId, 43 as UserId]);
      const ids = await heard;
      // Both users, as numbers; the tag (origin and cursor) wakes nobody.
      expect(ids.filter((id) => /^\d+$/.test(id))).toEqual(['42', '43']);
      expect(ids.filter((id) => !/^\d+$/.test(id))).toEqual([expect.stringMatching(/^~[0-9a-f]+\.\d+$/)]);
    } finally {
      await earlier.end();
      await sender.close();
    }
  });

  it('hears a typing signal of the earlier version (one notice, not a list) and drops a notice it cannot read', async () => {
    const receiver = await start();
    try {
      const user = 4_000_001 as UserId;
      const event = { type: 'typing' as const, payload: { conversation_id: 7, profile_id: 9 } };
      const remote: unknown[] = [];
      const heard = new Promise<void>((resolve) =>
        receiver.onSignal(user, (e) => {
          remote.push(e);
          resolve();
        }),
      );
      const channel = noticeChannel('signals', schema);
      await withAdminClient(database.url ?? '', async (client) => {
        // Garbage first, on the same channel: skipped, and the listener goes on.
        await client.query('select pg_notify($1, $2)', [channel, '{"to":[4000001],"event":{"type":"typing"']);
        await client.query('select pg_notify($1, $2)', [channel, JSON.stringify({ origin: 'old', to: [user], event })]);
      });
      await heard;
      expect(remote).toEqual([event]);
    } finally {
      await receiver.close();
    }
  });
});
