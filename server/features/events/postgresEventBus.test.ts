import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { UserId } from '../../../db/schema.ts';
import { createLogger } from '../../logger.ts';
import { withAdminClient } from '../../test/testDatabase.ts';
import { PostgresEventBus } from './eventBus.ts';
import { noticeChannel, quotedChannel } from './noticeChannels.ts';

const url = process.env.TEST_DATABASE_URL;

describe.runIf(url)('the PostgreSQL event bus', () => {
  it('wakes every user of a publish too long for one NOTIFY (8000 bytes): a ban tells everyone its spammer liked', async () => {
    const schema = `bus_${randomBytes(6).toString('hex')}`;
    const sender = await PostgresEventBus.start(url ?? '', schema, createLogger('silent'));
    const receiver = await PostgresEventBus.start(url ?? '', schema, createLogger('silent'));
    try {
      const ids = Array.from({ length: 5000 }, (_, i) => (1_000_000 + i) as UserId);
      const woken = (id: UserId) => new Promise<void>((resolve) => receiver.subscribe(id, resolve));
      const first = woken(ids[0] as UserId);
      const last = woken(ids.at(-1) as UserId);
      await sender.publish(ids);
      await expect(Promise.all([first, last])).resolves.toBeDefined();
    } finally {
      await sender.close();
      await receiver.close();
    }
  });

  it('wakes its own process at once and once (its notice coming back is skipped), the others through NOTIFY', async () => {
    const schema = `bus_${randomBytes(6).toString('hex')}`;
    const sender = await PostgresEventBus.start(url ?? '', schema, createLogger('silent'));
    const receiver = await PostgresEventBus.start(url ?? '', schema, createLogger('silent'));
    try {
      const user = 2_000_001 as UserId;
      const marker = 2_000_002 as UserId;
      let local = 0;
      sender.subscribe(user, () => local++);
      const remote = new Promise<void>((resolve) => receiver.subscribe(user, resolve));
      await sender.publish([user]);
      // Before any notice could come back through PostgreSQL.
      expect(local).toBe(1);
      await remote;
      // Notices reach a listener in commit order: once the receiver's later one is heard here, so was ours.
      const heard = new Promise<void>((resolve) => sender.subscribe(marker, resolve));
      await receiver.publish([marker]);
      await heard;
      expect(local).toBe(1);
    } finally {
      await sender.close();
      await receiver.close();
    }
  });

  it('still hears a bare list of ids, as a process of the earlier version sends it during a rolling deploy', async () => {
    const schema = `bus_${randomBytes(6).toString('hex')}`;
    const receiver = await PostgresEventBus.start(url ?? '', schema, createLogger('silent'));
    try {
      const woken = new Promise<void>((resolve) => receiver.subscribe(3_000_001 as UserId, resolve));
      await withAdminClient(url ?? '', (client) =>
        client.query('select pg_notify($1, $2)', [noticeChannel('events', schema), '3000000,3000001']),
      );
      await expect(woken).resolves.toBeUndefined();
    } finally {
      await receiver.close();
    }
  });

  it('wakes every user of its notice in a process of the earlier version, which reads the list as ids only', async () => {
    const schema = `bus_${randomBytes(6).toString('hex')}`;
    const sender = await PostgresEventBus.start(url ?? '', schema, createLogger('silent'));
    const earlier = new pg.Client({ connectionString: url });
    await earlier.connect();
    try {
      const heard = new Promise<string[]>((resolve) =>
        earlier.on('notification', (m) => resolve((m.payload ?? '').split(','))),
      );
      await earlier.query(`LISTEN ${quotedChannel(noticeChannel('events', schema))}`);
      await sender.publish([42 as UserId, 43 as UserId]);
      const ids = await heard;
      // Both users, as numbers; the tag wakes nobody.
      expect(ids.filter((id) => /^\d+$/.test(id))).toEqual(['42', '43']);
      expect(ids.filter((id) => !/^\d+$/.test(id)).every((id) => id.startsWith('~'))).toBe(true);
    } finally {
      await earlier.end();
      await sender.close();
    }
  });

  it('hands a typing signal to the other processes whole, and its own streams once; a notice it cannot read is dropped', async () => {
    const schema = `bus_${randomBytes(6).toString('hex')}`;
    const sender = await PostgresEventBus.start(url ?? '', schema, createLogger('silent'));
    const receiver = await PostgresEventBus.start(url ?? '', schema, createLogger('silent'));
    try {
      const user = 4_000_001 as UserId;
      const event = { type: 'typing' as const, payload: { conversation_id: 7, profile_id: 9 } };
      const local: unknown[] = [];
      const remote: unknown[] = [];
      sender.onSignal(user, (e) => local.push(e));
      const heard = new Promise<void>((resolve) =>
        receiver.onSignal(user, (e) => {
          remote.push(e);
          resolve();
        }),
      );
      // Garbage first, on the same channel: skipped, and the listener goes on.
      await withAdminClient(url ?? '', (client) =>
        client.query('select pg_notify($1, $2)', [
          noticeChannel('signals', schema),
          '{"to":[4000001],"event":{"type":"typing"',
        ]),
      );
      await sender.signal([user], event);
      expect(local).toEqual([event]);
      await heard;
      expect(remote).toEqual([event]);
      // The sender's own notice came back to it and was skipped: a later one from the receiver arrives alone.
      const back = new Promise<void>((resolve) => sender.onSignal(4_000_002 as UserId, () => resolve()));
      await receiver.signal([4_000_002 as UserId], event);
      await back;
      expect(local).toEqual([event]);
    } finally {
      await sender.close();
      await receiver.close();
    }
  });
});
