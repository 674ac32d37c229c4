import { createClient } from '@redis/client';

/** The Redis tests and benches use (CI starts one on 6379 as it starts PostgreSQL, .ci/run). */
export const testRedisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Whether a Redis answers at `url` within two seconds: without one, the Redis paths are skipped and say so. */
export async function redisAnswers(url: string = testRedisUrl): Promise<boolean> {
  const client = createClient({ url, socket: { reconnectStrategy: false, connectTimeout: 2000 } });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.destroy();
  }
}
