import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { UserId } from '../../../db/schema.ts';
import { createLogger } from '../../logger.ts';
import { PostgresEventBus } from './eventBus.ts';

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
});
