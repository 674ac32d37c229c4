/**
 * Before/after for the discovery and chat figures (issue 18: they must not get worse), in one invocation:
 *   npx tsx bench/compare.ts <before checkout> [after checkout, default .] [--rounds n, default 2]
 * Runs each checkout's own `bench/discovery.ts search like` and `bench/chat.ts` (`scripts/bench-discovery.ts`
 * and `scripts/bench-chat.ts` in a checkout from before bench/ existed), alternating
 * (before, after, before, after ...), so both meet the same spells of load from whatever else runs on the
 * machine. Absolute milliseconds swing with that load, so every figure is also divided by the floor its own
 * bench measured in the same process a few seconds apart (the search by the same query without exclusions or
 * ORDER BY, the like by a bare INSERT, the message page by the raw SQL); those ratios are what compare.
 * The SSE delivery has no floor in its bench: its milliseconds are printed as they are.
 * Each checkout uses its own cached data set (data/bench/); copy one built by the older checkout to the
 * newer (same dataSetVersion), which applies its newer migrations to its working copy.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';

interface Figure {
  p50: number;
  p99: number;
}
/** One bench process's figures by label, as its `summary` lines print them. */
type Run = Map<string, Figure>;

const args = process.argv.slice(2);
const roundsAt = args.indexOf('--rounds');
const rounds = roundsAt >= 0 ? Number(args[roundsAt + 1]) : 2;
const positional = roundsAt >= 0 ? [...args.slice(0, roundsAt), ...args.slice(roundsAt + 2)] : args;
const [beforeArg, afterArg = '.'] = positional;
if (!beforeArg || !Number.isInteger(rounds) || rounds < 1) {
  console.error('usage: npx tsx bench/compare.ts <before checkout> [after checkout] [--rounds n]');
  process.exit(2);
}
const checkouts = { before: path.resolve(beforeArg), after: path.resolve(afterArg) };
type Side = keyof typeof checkouts;

/** Each figure with the floor it is divided by (measured in the same process); null: no floor. */
const discoveryFigures: [string, string | null][] = [
  ['first search (fresh scan), normal users', 'floor (no exclusions, no ORDER BY), normal'],
  ['first search, heavy users (10,000 swipes)', 'floor, heavy users'],
  ['next card (pooled, re-checked), normal users', 'floor (no exclusions, no ORDER BY), normal'],
  ['next card, heavy users', 'floor, heavy users'],
  ['swiping session (150 cards each), normal', 'floor (no exclusions, no ORDER BY), normal'],
  ['swiping session, heavy users', 'floor, heavy users'],
  ['coming back, 1% changed since, normal', 'floor (no exclusions, no ORDER BY), normal'],
  ['coming back, 1% changed since, heavy', 'floor, heavy users'],
  ['floor (no exclusions, no ORDER BY), normal', null],
  ['floor, heavy users', null],
  ['like transaction (repository, one trx)', 'bare INSERT into swipes (raw, autocommit)'],
  ['service.swipe (checks + trx + photo)', 'bare INSERT into swipes (raw, autocommit)'],
  ['bare INSERT into swipes (raw, autocommit)', null],
];
const chatFigures: [string, string | null][] = [
  ['last 20 messages (repository, Kysely)', 'last 20 messages (raw SQL)'],
  ['last 20 messages (raw SQL)', null],
  // The label carries the bench's idle-stream count.
  [`send -> SSE delivery (${Number(process.env.BENCH_IDLE_STREAMS ?? 1000)} idle streams)`, null],
];
const benches = [
  {
    script: 'bench/discovery.ts',
    before: 'scripts/bench-discovery.ts',
    args: ['search', 'like'],
    figures: discoveryFigures,
  },
  { script: 'bench/chat.ts', before: 'scripts/bench-chat.ts', args: [], figures: chatFigures },
];
/** The bench's path in a checkout: under bench/, or where it lived before bench/ existed. */
const scriptIn = (dir: string, bench: (typeof benches)[number]) =>
  existsSync(path.join(dir, bench.script)) ? bench.script : bench.before;

const summaryLine = /^(.+?)\s+n=\s*\d+\s+p50\s+([\d.]+) ms\s+p99\s+([\d.]+) ms/;

/** Runs one bench in a checkout with that checkout's own tsx, echoing its output, and parses its figures. */
function runBench(dir: string, script: string, benchArgs: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(dir, 'node_modules/.bin/tsx'), [script, ...benchArgs], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      process.stdout.write(chunk);
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`${script} in ${dir} exited with ${code}`));
      const run: Run = new Map();
      for (const text of out.split('\n')) {
        const m = summaryLine.exec(text);
        if (m?.[1] && m[2] && m[3]) run.set(m[1].trim(), { p50: Number(m[2]), p99: Number(m[3]) });
      }
      resolve(run);
    });
  });
}

const results: Record<Side, Run[]> = { before: [], after: [] };
const loads: Record<Side, number[]> = { before: [], after: [] };
const started = Date.now();
for (let round = 1; round <= rounds; round++) {
  for (const side of ['before', 'after'] as const) {
    const merged: Run = new Map();
    for (const bench of benches) {
      const script = scriptIn(checkouts[side], bench);
      console.log(
        `\n=== round ${round}/${rounds}, ${side} (${checkouts[side]}): ${script} ${bench.args.join(' ')}, load average ${loadavg()[0]?.toFixed(1)}`,
      );
      loads[side].push(loadavg()[0] ?? Number.NaN);
      for (const [label, figure] of await runBench(checkouts[side], script, bench.args)) merged.set(label, figure);
    }
    results[side].push(merged);
  }
}

const median = (values: number[]) => {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (!sorted.length) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};
const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(3) : '–');
const ratio = (v: number) => (Number.isFinite(v) ? `${v.toFixed(2)}x` : '–');
/** A figure's value in every run of one side, divided by its floor of the same run when it has one. */
const perRun = (side: Side, label: string, floor: string | null, q: keyof Figure) =>
  results[side].map((run) => {
    const value = run.get(label)?.[q] ?? Number.NaN;
    if (floor === null) return value;
    return value / (run.get(floor)?.[q] ?? Number.NaN);
  });
const spread = (values: number[], format: (v: number) => string) => values.map(format).join(' / ');

console.log(
  `\n## Before/after, ${rounds} rounds each, alternating; ${((Date.now() - started) / 60_000).toFixed(1)} min`,
);
console.log(`before: ${checkouts.before}\nafter:  ${checkouts.after}`);
console.log(
  `load average (1 min) at each bench start, before: ${spread(loads.before, (v) => v.toFixed(1))}; after: ${spread(loads.after, (v) => v.toFixed(1))} (machine shared with other agents)`,
);
console.log('\nMedian over rounds; ratios are to the floor measured in the same process (per round in brackets).\n');
console.log(
  '| figure | floor | p50 ms before | p50 ms after | p99 ms before | p99 ms after | p50/floor before | p50/floor after | p99/floor before | p99/floor after | after ÷ before (p50, p99 of the ratios) |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const [label, floor] of [...discoveryFigures, ...chatFigures]) {
  const cells = [label, floor ?? (label.startsWith('send') ? 'none in its bench' : '(a floor)')];
  for (const q of ['p50', 'p99'] as const)
    for (const side of ['before', 'after'] as const) cells.push(ms(median(perRun(side, label, null, q))));
  const change: string[] = [];
  for (const q of ['p50', 'p99'] as const) {
    for (const side of ['before', 'after'] as const) {
      const values = perRun(side, label, floor, q);
      cells.push(floor === null ? '' : `${ratio(median(values))} (${spread(values, ratio)})`);
    }
    // Without a floor, the change of the milliseconds themselves.
    change.push(ratio(median(perRun('after', label, floor, q)) / median(perRun('before', label, floor, q))));
  }
  cells.push(change.join(', '));
  console.log(`| ${cells.join(' | ')} |`);
}
