/**
 * The doorbell batcher on its own: what an outage logs, and that flush() and close() leave no timer that could
 * start a second send beside one under way or ring after the bus has closed. The clock is vitest's, so the
 * tick's wait is stepped through, not slept.
 */
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../logger.ts';
import { TickBatch } from './tickBatch.ts';

const tickMs = 25;

/** A send whose calls the test settles one by one, counting how many are under way at once. */
function controlledSend() {
  const calls: { items: number[]; settle: (error?: Error) => void }[] = [];
  let running = 0;
  let mostAtOnce = 0;
  const send = (items: number[]) =>
    new Promise<void>((resolve, reject) => {
      running++;
      mostAtOnce = Math.max(mostAtOnce, running);
      calls.push({
        items,
        settle: (error) => {
          running--;
          if (error) reject(error);
          else resolve();
        },
      });
    });
  return { send, calls, mostAtOnce: () => mostAtOnce };
}

/** The log's lines at warn level and above, and those at info. */
function recordingLogger() {
  const lines: { level: number; msg: string }[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as { level: number; msg: string });
      done();
    },
  });
  const logger = createLogger('info', destination);
  return {
    logger,
    warnings: () => lines.filter((l) => l.level >= 40),
    infos: () => lines.filter((l) => l.level === 30),
  };
}

describe('TickBatch', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Runs the armed timer, if any, and the promise callbacks it starts (vi.waitFor would move the clock). */
  async function tick(): Promise<void> {
    await vi.advanceTimersByTimeAsync(tickMs);
  }

  it('warns once for a run of failed sends, says when sending works again, and warns for the next outage', async () => {
    const { send, calls } = controlledSend();
    const log = recordingLogger();
    const batch = new TickBatch(send, log.logger, 'a doorbell', tickMs);
    for (let i = 0; i < 20; i++) {
      batch.add([i]);
      await tick();
      calls.at(-1)?.settle(new Error('Redis is down'));
      await tick();
    }
    expect(calls).toHaveLength(20);
    await vi.waitFor(() => expect(log.warnings()).toHaveLength(1));
    batch.add([20]);
    await tick();
    calls.at(-1)?.settle();
    await tick();
    await vi.waitFor(() => expect(log.infos().some((l) => l.msg.includes('again'))).toBe(true));
    batch.add([21]);
    await tick();
    calls.at(-1)?.settle(new Error('down again'));
    await tick();
    await vi.waitFor(() => expect(log.warnings()).toHaveLength(2));
  });

  it('leaves no timer behind a flush that came during a send: never two sends at once', async () => {
    const { send, calls, mostAtOnce } = controlledSend();
    const batch = new TickBatch(send, recordingLogger().logger, 'a doorbell', tickMs);
    batch.add([1]);
    await tick();
    expect(calls).toHaveLength(1);
    batch.add([2]);
    const flushed = batch.flush();
    calls[0]?.settle();
    // The flush sends what was pending once the first send is over (the clock stands still meanwhile).
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(2);
    expect(calls[1]?.items).toEqual([2]);
    // Added during the flush's send: it waits for that send, whatever the clock does meanwhile.
    batch.add([3]);
    for (let i = 0; i < 10; i++) await tick();
    expect(calls).toHaveLength(2);
    calls[1]?.settle();
    await flushed;
    await tick();
    expect(calls).toHaveLength(3);
    expect(calls[2]?.items).toEqual([3]);
    calls[2]?.settle();
    await tick();
    expect(mostAtOnce()).toBe(1);
  });

  it('sends what is pending on close and takes nothing afterwards, with no timer left', async () => {
    const { send, calls } = controlledSend();
    const batch = new TickBatch(send, recordingLogger().logger, 'a doorbell', tickMs);
    batch.add([1]);
    await tick();
    batch.add([2]);
    const closed = batch.close();
    calls[0]?.settle();
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    calls[1]?.settle();
    await closed;
    batch.add([3]);
    expect(vi.getTimerCount()).toBe(0);
    for (let i = 0; i < 10; i++) await tick();
    expect(calls.map((c) => c.items)).toEqual([[1], [2]]);
  });
});
