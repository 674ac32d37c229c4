import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Koa from 'koa';

/** Small shared pieces of the bench scripts: timing, percentiles, a listening server. */

export function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

export function summary(name: string, samples: number[]): { p50: number; p99: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const p50 = quantile(sorted, 0.5);
  const p99 = quantile(sorted, 0.99);
  console.log(
    `${name.padEnd(44)} n=${String(samples.length).padStart(5)}  p50 ${p50.toFixed(3).padStart(8)} ms  p99 ${p99.toFixed(3).padStart(8)} ms`,
  );
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
