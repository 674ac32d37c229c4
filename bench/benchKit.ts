import { once } from 'node:events';
import { appendFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type Koa from 'koa';

/** Small shared pieces of the bench scripts: timing, percentiles, a listening server, the headline figures. */

export interface Quantiles {
  p50: number;
  p99: number;
}

/**
 * One headline figure of a bench, in the form `npm run bench` (bench/run.ts) gathers into its closing table:
 * what was measured, its ratio to the floor measured beside it in the same run (p50, and p99 where there is
 * one), and the goal when the issue behind the bench set one. A figure with no floor (a browser's frame time,
 * a whole crowd) has no ratio: its `value` says it in its own unit.
 */
export interface Headline {
  bench: string;
  measure: string;
  ratio: number | null;
  p99?: number;
  floor: string;
  value?: string;
  goal?: string;
}

/** The running bench's name: its file's (bench/discovery.ts: discovery). */
export const benchName = path.basename(process.argv[1] ?? 'bench', '.ts');

/**
 * Records a headline for bench/run.ts, which names a file in BENCH_RESULTS (one JSON object a line); run
 * alone, a bench records nothing and prints exactly what it printed before.
 */
export function headline(figure: Omit<Headline, 'bench'>): void {
  const file = process.env.BENCH_RESULTS;
  if (file) appendFileSync(file, `${JSON.stringify({ bench: benchName, ...figure })}\n`);
}

/**
 * Prints `label  p50 1.23x  p99 1.45x` for ours against the floor, and records it as a headline: `floor` names
 * what the floor is, `measure` (default: the label) what the table calls the figure.
 */
export function ratioLine(
  label: string,
  ours: Quantiles,
  floor: Quantiles,
  about: { floor: string; goal?: string; measure?: string },
): void {
  const p50 = ours.p50 / floor.p50;
  const p99 = ours.p99 / floor.p99;
  line(label, `p50 ${p50.toFixed(2)}x  p99 ${p99.toFixed(2)}x${about.goal ? `  (goal ${about.goal})` : ''}`);
  headline({
    measure: about.measure ?? label.trim(),
    ratio: p50,
    p99,
    floor: about.floor,
    ...(about.goal ? { goal: about.goal } : {}),
  });
}

/** The value after `--name` on the command line, if given. */
export function argOption(name: string): string | undefined {
  const args = process.argv.slice(2);
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
}

export function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

export function summary(name: string, samples: number[]): Quantiles {
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
export async function openLoop(
  next: () => { url: string; headers: Record<string, string> },
  rate: number,
  seconds: number,
): Promise<OpenLoopResult> {
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
