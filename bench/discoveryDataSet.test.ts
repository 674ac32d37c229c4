import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { snapCoordinates } from '../server/features/profiles/locationGrid.ts';
import { ensureDataSet } from './discoveryDataSet.ts';

describe('the discovery bench data set', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'iskra-bench-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const size = { profiles: 1000, swipes: 5000, heavyUsers: 2, heavySwipes: 150, blocks: 20 };

  it('builds valid rows once into the migrated schema, then reuses the file', async () => {
    const first = await ensureDataSet(dir, size);
    expect(first.builtNow).toBe(true);
    const sqlite = new SQLite(first.file, { readonly: true });
    try {
      const count = (sql: string) => (sqlite.prepare(sql).get() as { n: number }).n;
      expect(
        count('select count(*) as n from profiles p join users u on u.id = p.user_id where u.verified_at is not null'),
      ).toBe(1000);
      expect(count('select count(*) as n from photos')).toBe(1000);
      expect(count('select count(*) as n from profiles where age < 18 or age > 60')).toBe(0);
      expect(count('select count(*) as n from swipes')).toBeGreaterThan(4500);
      expect(count('select count(*) as n from swipes where swiper_id = target_id')).toBe(0);
      // Every match is a mutual like, stored as (low, high).
      expect(count('select count(*) as n from matches')).toBeGreaterThan(0);
      expect(
        count(`select count(*) as n from matches m where m.profile_low >= m.profile_high
          or not exists (select 1 from swipes a where a.swiper_id = m.profile_low and a.target_id = m.profile_high and a.liked = 1)
          or not exists (select 1 from swipes b where b.swiper_id = m.profile_high and b.target_id = m.profile_low and b.liked = 1)`),
      ).toBe(0);
      for (const id of first.info.heavy)
        expect(count(`select count(*) as n from swipes where swiper_id = ${id}`)).toBe(150);
      const points = sqlite.prepare('select latitude, longitude from profiles').all() as {
        latitude: number;
        longitude: number;
      }[];
      for (const p of points) expect(snapCoordinates(p.latitude, p.longitude)).toEqual(p);
    } finally {
      sqlite.close();
    }
    const second = await ensureDataSet(dir, size);
    expect(second.builtNow).toBe(false);
    expect(second.info).toEqual(first.info);
  });
});
