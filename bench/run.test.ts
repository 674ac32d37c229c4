import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultBenches, planOf, summaryTable } from './run.ts';

const root = path.resolve(import.meta.dirname, '..');

describe('npm run bench (bench/run.ts)', () => {
  it('runs the usual set when named none, in the order npm run bench always ran them', () => {
    expect(planOf([])).toEqual({ benches: [...defaultBenches], args: [] });
    expect(defaultBenches).toEqual([
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
    ]);
  });

  it('takes bench names, then arguments for them', () => {
    expect(planOf(['photos', 'chat'])).toEqual({ benches: ['photos', 'chat'], args: [] });
    expect(planOf(['discovery', 'search', 'like'])).toEqual({ benches: ['discovery'], args: ['search', 'like'] });
    expect(planOf(['load', '--seconds', '5'])).toEqual({ benches: ['load'], args: ['--seconds', '5'] });
    expect(planOf(['http', '--', 'chat'])).toEqual({ benches: ['http'], args: ['chat'] });
    expect(() => planOf(['nosuch'])).toThrow(/no bench is called nosuch/);
  });

  it('gathers every headline into one table, and names a bench that failed or recorded none', () => {
    const table = summaryTable(
      [
        { bench: 'photos', code: 0, seconds: 3 },
        { bench: 'swipe', code: 0, seconds: 9 },
        { bench: 'scale', code: 0, seconds: 30 },
        { bench: 'data', code: 1, seconds: 2 },
      ],
      [
        {
          bench: 'photos',
          measure: '12 MP JPEG through the upload endpoint',
          ratio: 1.084,
          p99: 1.2,
          floor: 'sharp alone',
          goal: '<= 1.25x',
        },
        {
          bench: 'swipe',
          measure: 'release → next card shown',
          ratio: null,
          floor: 'none',
          value: 'p75 80.0 ms',
          goal: 'p75 <= 100 ms',
        },
      ],
    );
    const lines = table.split('\n');
    expect(lines[0]).toMatch(/^bench\s+measure\s+p50 ratio\s+p99 ratio\s+floor\s+value\s+goal$/);
    expect(lines.find((l) => l.startsWith('photos'))).toMatch(/12 MP JPEG.*1\.08x\s+1\.20x\s+sharp alone\s+<= 1\.25x/);
    expect(lines.find((l) => l.startsWith('swipe'))).toMatch(/–.*p75 80\.0 ms\s+p75 <= 100 ms/);
    expect(lines.find((l) => l.startsWith('scale'))).toContain('no headline recorded');
    expect(lines.find((l) => l.startsWith('data'))).toContain('FAILED (exit 1)');
  });

  it('runs a named bench as its own process and ends with its headlines in the table', () => {
    // location is the one quick bench: in-memory lookups, a few seconds.
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'bench/run.ts', 'location'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(run.status).toBe(0);
    const [output, table = ''] = run.stdout.split('=== Summary');
    expect(output).toContain('forward: city name → city');
    expect(table).toMatch(/location\s+forward: city name → city\s+–\s+none\s+p50 [\d.]+ µs, p99 [\d.]+ µs/);
    expect(table).toMatch(/location\s+reverse: coordinates near a city → city/);
  }, 120_000);

  it('refuses a name it does not know, listing the benches', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'bench/run.ts', 'nosuch'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('the benches: api, photos');
  });
});
