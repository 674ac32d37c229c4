import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client.ts';

const run = promisify(execFile);

describe('npm run demo seeding', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'iskra-demo-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('creates the demo account and profiles with photos once, and leaves them alone the second time', async () => {
    const env = { ...process.env, DATA_DIR: dataDir, DEMO_PROFILES: '6', DATABASE_URL: '' };
    const first = await run('npx', ['tsx', 'scripts/seed-demo.ts'], { env });
    expect(first.stdout).toContain('7 demo profiles');
    const second = await run('npx', ['tsx', 'scripts/seed-demo.ts'], { env });
    expect(second.stdout).toContain('already there');

    const { db } = openDatabase({ dataDir });
    try {
      const profiles = await db
        .selectFrom('profiles')
        .innerJoin('users', 'users.id', 'profiles.user_id')
        .select(['users.email', 'users.verified_at', 'profiles.latitude'])
        .execute();
      expect(profiles).toHaveLength(7);
      expect(profiles.every((p) => p.verified_at !== null && p.latitude !== null)).toBe(true);
      const demo = await db.selectFrom('users').select('password_hash').where('email', '=', 'demo@iskra.local').executeTakeFirstOrThrow();
      expect(demo.password_hash).toMatch(/^\$argon2id\$/);
      // Each person's name, bio and city are in their own language, and the city is a place of the data set.
      const people = await db
        .selectFrom('profiles')
        .innerJoin('users', 'users.id', 'profiles.user_id')
        .select(['users.language', 'profiles.name', 'profiles.bio', 'profiles.city', 'profiles.place_id'])
        .execute();
      expect(new Set(people.map((p) => p.language))).toEqual(new Set(['ru', 'en']));
      for (const person of people) {
        const script = person.language === 'ru' ? /^[А-Яа-яЁё\s-]+$/ : /^[A-Za-z\s-]+$/;
        expect(person.name, person.name).toMatch(script);
        expect(person.city, person.name).toMatch(script);
        expect(person.bio.replace(/[^A-Za-zА-Яа-яЁё]/g, ''), person.bio).toMatch(person.language === 'ru' ? /^[А-Яа-яЁё]*$/ : /^[A-Za-z]*$/);
        expect(person.place_id, person.city).toBeGreaterThan(0);
      }
      const photoRows = await db.selectFrom('photos').select('file_name').execute();
      const files = readdirSync(path.join(dataDir, 'uploads'));
      for (const row of photoRows) expect(files).toContain(row.file_name);
    } finally {
      await db.destroy();
    }
    // Two tsx start-ups and 7 profiles' photo pipelines: slow on a busy two-core machine.
  }, 120_000);
});
