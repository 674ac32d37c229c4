import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { namedStatementOf } from '../../../db/prepared.ts';
import { StatementLog } from '../../../db/statementCounter.ts';
import type { Gender } from '../../../db/schema.ts';
import { createTestDatabase, testDialects, type TestDatabase } from '../../test/testDatabase.ts';
import { testProfileId } from '../../test/testIds.ts';
import { findCandidates, paddedIds } from './candidates.ts';

/**
 * Re-checking pooled people runs on every pooled search, so on PostgreSQL it is a named statement (parsed
 * and planned once per connection). That is only safe with few texts: each stays on every connection for
 * its lifetime. Every list length and age range must map to a handful of texts.
 */
describe.each(testDialects())('re-check statements on %s', (dialect) => {
  let database: TestDatabase;
  const log = new StatementLog();
  beforeEach(async () => {
    database = await createTestDatabase(dialect, { onStatement: log.record });
  });
  afterEach(async () => {
    await database.drop();
  });

  it('any list of people and any filters give a few named texts', async () => {
    const texts = new Set<string>();
    const genders: ('Any' | Gender)[] = ['Any', 'Female', 'Male', 'Other'];
    for (let length = 1; length <= 200; length += 7) {
      for (const [ageMin, ageMax] of [
        [18, 30],
        [25, 60],
        [40, 100],
      ] as const) {
        const only = Array.from({ length }, (_, i) => i + 1);
        const gender = genders[length % genders.length] ?? 'Any';
        const statements = await log.during(() =>
          findCandidates(database.db, {
            me: { id: testProfileId(500), gender: 'Male', point: null, age: 30 },
            ageMin,
            ageMax,
            gender,
            box: null,
            only,
            limit: length,
          }),
        );
        for (const sql of statements) texts.add(sql);
      }
    }
    // Lengths 1..200 padded to powers of two (9 of them, 1 to 256), times two gender lists (one gender, or all three).
    expect(texts.size).toBeLessThanOrEqual(18);
    for (const sql of texts) expect(namedStatementOf(sql), sql).toBeDefined();
  });
});

describe('paddedIds', () => {
  it('pads a list to the next power of two with its last id', () => {
    expect(paddedIds([])).toEqual([]);
    expect(paddedIds([7])).toEqual([7]);
    expect(paddedIds([1, 2, 3])).toEqual([1, 2, 3, 3]);
    expect(paddedIds([1, 2, 3, 4, 5])).toEqual([1, 2, 3, 4, 5, 5, 5, 5]);
  });
});
