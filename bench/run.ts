/**
 * `npm run bench [name…] [-- args]`: the one entry to the benches. With no name it runs the usual set in
 * order (what `npm run bench` always ran); with names, those (`npm run bench photos chat`). Arguments after
 * the names (from the first word that names no bench, or after a `--`) go to each named bench:
 * `npm run bench discovery search`, `npm run bench load -- --seconds 20`.
 *
 * Each bench runs as its own process with its output as it always was; each records its headline figures
 * (bench/benchKit.ts `ratioLine`, `headline`) into a file this process names in BENCH_RESULTS, and at the end
 * one table gathers them: every figure's ratio to the floor its bench measured beside it in the same run.
 * A bench that fails does not stop the others; the exit code is then 1.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Headline } from './benchKit.ts';

/** The benches `npm run bench` runs when named none, in this order (the quick ones first). */
export const defaultBenches = [
  'api',
  'photos',
  'chat',
  'location',
  'frontend',
  'swipe',
  'live',
  'sse',
  'load',
  'discovery',
  'data',
  'peer',
  'memory',
  'scale',
  'fanout',
] as const;
/**
 * Run only when named: `http` takes minutes (also `npm run bench:http`); `compare` needs checkouts to compare;
 * `moderation` loads about 350 MB of models.
 */
export const namedOnly = ['http', 'compare', 'moderation'] as const;
const known: readonly string[] = [...defaultBenches, ...namedOnly];

export interface Plan {
  benches: string[];
  args: string[];
}

/** The bench names, then the arguments for them; an unknown first word is an error, not a bench's argument. */
export function planOf(argv: string[]): Plan {
  const names: string[] = [];
  let i = 0;
  for (; i < argv.length; i++) {
    const word = argv[i] ?? '';
    if (word === '--') {
      i++;
      break;
    }
    if (!known.includes(word)) break;
    names.push(word);
  }
  const args = argv.slice(i);
  if (names.length === 0 && args.length > 0 && !args[0]?.startsWith('-')) {
    throw new Error(`no bench is called ${args[0] ?? ''}; the benches: ${known.join(', ')}`);
  }
  return { benches: names.length ? names : [...defaultBenches], args };
}

export interface Outcome {
  bench: string;
  /** Exit code (a signal counts as failure). */
  code: number;
  seconds: number;
}

const times = (value: number | undefined) =>
  value === undefined || !Number.isFinite(value) ? '' : `${value.toFixed(2)}x`;

/** The closing table: one row per headline, and a row for each bench that failed or recorded none. */
export function summaryTable(outcomes: Outcome[], headlines: Headline[]): string {
  const rows: string[][] = [['bench', 'measure', 'p50 ratio', 'p99 ratio', 'floor', 'value', 'goal']];
  for (const outcome of outcomes) {
    const own = headlines.filter((h) => h.bench === outcome.bench);
    for (const h of own)
      rows.push([
        h.bench,
        h.measure,
        h.ratio === null ? '–' : times(h.ratio),
        times(h.p99),
        h.floor,
        h.value ?? '',
        h.goal ?? '',
      ]);
    if (outcome.code !== 0)
      rows.push([
        outcome.bench,
        `FAILED (exit ${outcome.code}) after ${outcome.seconds.toFixed(0)} s`,
        '',
        '',
        '',
        '',
        '',
      ]);
    else if (own.length === 0)
      rows.push([outcome.bench, '(no headline recorded: see its output above)', '', '', '', '', '']);
  }
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  const format = (row: string[]) =>
    row
      .map((cell, column) =>
        column === 2 || column === 3 ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0),
      )
      .join('  ')
      .trimEnd();
  return [format(rows[0] ?? []), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(format)].join('\n');
}

function runBench(bench: string, args: string[], resultsFile: string): Promise<Outcome> {
  const started = performance.now();
  const file = path.join(import.meta.dirname, `${bench}.ts`);
  // `node --import tsx` as the servers the benches start are run; forked helpers inherit the loader.
  const child = spawn(process.execPath, ['--import', 'tsx', file, ...args], {
    stdio: 'inherit',
    env: { ...process.env, BENCH_RESULTS: resultsFile },
  });
  return new Promise((resolve) => {
    child.on('error', () => resolve({ bench, code: 1, seconds: (performance.now() - started) / 1000 }));
    child.on('exit', (code, signal) =>
      resolve({ bench, code: code ?? (signal ? 128 : 1), seconds: (performance.now() - started) / 1000 }),
    );
  });
}

function readHeadlines(file: string): Headline[] {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Headline);
}

async function main(): Promise<number> {
  let plan: Plan;
  try {
    plan = planOf(process.argv.slice(2));
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }
  const work = mkdtempSync(path.join(tmpdir(), 'iskra-bench-run-'));
  const resultsFile = path.join(work, 'headlines.jsonl');
  const outcomes: Outcome[] = [];
  // Ctrl-C reaches the running bench too (one process group); this process only stops starting new ones.
  const stop = { interrupted: false };
  process.on('SIGINT', () => (stop.interrupted = true));
  try {
    for (const bench of plan.benches) {
      if (stop.interrupted) break;
      console.log(
        `\n=== bench ${bench}${plan.args.length ? ` ${plan.args.join(' ')}` : ''} (${outcomes.length + 1}/${plan.benches.length})`,
      );
      outcomes.push(await runBench(bench, plan.args, resultsFile));
    }
    console.log(
      `\n=== Summary: headline ratios (ours / the floor measured in the same run; lower is better but for scale)\n`,
    );
    console.log(summaryTable(outcomes, readHeadlines(resultsFile)));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return stop.interrupted || outcomes.some((o) => o.code !== 0) ? 1 : 0;
}

// Run as a script (not when a test imports the plan and the table).
if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) process.exitCode = await main();
