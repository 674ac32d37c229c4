import { describe, expect, it } from 'vitest';
import { Semaphore } from './semaphore.ts';

describe('Semaphore', () => {
  it('runs at most `limit` tasks at once and all of them eventually, in arrival order', async () => {
    const gate = new Semaphore(2);
    let running = 0;
    let peak = 0;
    const started: number[] = [];
    const tasks = Array.from({ length: 7 }, (_, i) =>
      gate.run(async () => {
        started.push(i);
        running += 1;
        peak = Math.max(peak, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running -= 1;
        return i;
      }),
    );
    expect(await Promise.all(tasks)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(peak).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('frees the slot when a task fails', async () => {
    const gate = new Semaphore(1);
    await expect(gate.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await gate.run(() => Promise.resolve('next'))).toBe('next');
  });
});
