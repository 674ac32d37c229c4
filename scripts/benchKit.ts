import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Koa from 'koa';

/** Small shared pieces of the bench scripts: timing, percentiles, a listening server. */

/** The value after `--name` on the command line, if given. */
export function argOption(name: string): string | undefined {
  const args = process.argv.slice(2);
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
}

export function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

export function summary(name: string, samples: number[]): { p50: number; p99: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const p50 = quantile(sorted, 0.5);
  const p99 = quantile(sorted, 0.99);
  console.log(`${name.padEnd(44)} n=${String(samples.length).padStart(5)}  p50 ${p50.toFixed(3).padStart(8)} ms  p99 ${p99.toFixed(3).padStart(8)} ms`);
  return { p50, p99 };
}

export function line(label: string, value: string): void {
  console.log(`${label.padEnd(44)} ${value}`);
}

export async function time(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

export async function listen(app: Koa): Promise<{ server: Server; url: string; close(): void }> {
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}

export interface OpenLoopResult {
  /** Milliseconds from each request's scheduled start to the end of its body. */
  latencies: number[];
  failures: number;
  /** Body size of the last answer. */
  bytes: number;
}

/**
 * A fixed arrival rate, whatever the server does (open loop): request i is due at start + i / rate and its
 * latency counts from then, so a slow answer cannot hide the queue behind it (no coordinated omission).
 * A timer tick fires every request already due; requests overlap freely.
 */
export async function openLoop(next: () => { url: string; headers: Record<string, string> }, rate: number, seconds: number): Promise<OpenLoopResult> {
  const total = Math.round(rate * seconds);
  const interval = 1000 / rate;
  const start = performance.now() + 5;
  const latencies: number[] = [];
  const pending: Promise<void>[] = [];
  let failures = 0;
  let bytes = 0;
  let sent = 0;
  while (sent < total) {
    const due = start + sent * interval;
    // A timer fires a millisecond or more late, which would count in every latency alike and flatten the ratios:
    // sleep to just before the due time, then yield to I/O until it comes.
    for (let wait = due - performance.now(); wait > 0; wait = due - performance.now()) {
      // (The yielding spins for about a millisecond a request: at 200 a second, a fifth of a core.)
      await new Promise((resolve) => (wait > 1.2 ? setTimeout(resolve, wait - 1.1) : setImmediate(resolve)));
    }
    const nowAt = performance.now();
    while (sent < total && start + sent * interval <= nowAt) {
      const scheduled = start + sent * interval;
      const { url, headers } = next();
      sent++;
      pending.push(
        fetch(url, { headers })
          .then(async (res) => {
            const body = await res.arrayBuffer();
            latencies.push(performance.now() - scheduled);
            bytes = body.byteLength;
            if (res.status !== 200) failures++;
          })
          .catch(() => {
            // A saturated server stops accepting connections (or cuts a body short): a failure, and its wait
            // counts as latency.
            latencies.push(performance.now() - scheduled);
            failures++;
          }),
      );
    }
  }
  await Promise.all(pending);
  return { latencies, failures, bytes };
}
