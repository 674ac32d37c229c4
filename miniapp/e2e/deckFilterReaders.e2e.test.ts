import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { searchQuery } from '../../server/contract/discovery.ts';
import { defaultFilters, filterReaders } from '../src/lib/filters.ts';

/**
 * The deck reads its stored filters without zod (issue 41: its first card comes before zod has loaded), by
 * hand-written readers in miniapp/src/lib/filters.ts. They must read every value as the contract's
 * `searchQuery` reads that field, a refused value giving the field's default: this holds them to it.
 */
const samples: unknown[] = [
  undefined,
  null,
  '',
  ' ',
  0,
  1,
  17,
  18,
  '18',
  25,
  '25',
  25.5,
  '25.5',
  99,
  100,
  '100',
  101,
  500,
  '500',
  501,
  -3,
  'abc',
  true,
  false,
  'true',
  'false',
  'Any',
  'Male',
  'Female',
  'Other',
  'male',
  [],
  [30],
  {},
  Number.NaN,
  Number.POSITIVE_INFINITY,
  '1e2',
  '0x20',
];

describe('the deck filters read without zod', () => {
  it('has the contract defaults', () => {
    const defaults: Partial<z.output<typeof searchQuery>> = z.parse(searchQuery, {});
    delete defaults.exclude;
    expect(defaultFilters).toEqual(defaults);
  });

  it.each(Object.keys(filterReaders) as (keyof typeof filterReaders)[])('reads %s as the contract does', (name) => {
    const schema: z.ZodMiniType = searchQuery.shape[name];
    const read: (value: unknown) => unknown = filterReaders[name];
    for (const value of samples) {
      const checked = z.safeParse(schema, value);
      const expected: unknown = checked.success ? checked.data : z.parse(schema, undefined);
      expect(read(value), `${name} from ${String(JSON.stringify(value))}`).toEqual(expected);
    }
  });

  it('reads every filter of the contract but exclude', () => {
    expect(Object.keys(filterReaders).sort()).toEqual(
      Object.keys(searchQuery.shape)
        .filter((k) => k !== 'exclude')
        .sort(),
    );
  });
});
