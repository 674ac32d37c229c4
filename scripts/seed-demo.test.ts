import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client.ts';
import { compiledArgs } from '../server/test/compiledCommands.ts';
import { demoNames } from './demoPeople.ts';
import { skinTones } from './demoPortrait.ts';

const run = promisify(execFile);

describe('npm run demo seeding', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'iskra-demo-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('creates the demo account and profiles with photos once, and leaves them alone the second time', async () => {
    const env = { ...process.env, DATA_DIR: dataDir, DEMO_PROFILES: '6', DATABASE_URL: '' };
    const seed = await compiledArgs('seed-demo');
    const first = await run(process.execPath, seed, { env });
    expect(first.stdout).toContain('7 demo profiles');
    const second = await run(process.execPath, seed, { env });
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
      const demo = await db
        .selectFrom('users')
        .select('password_hash')
        .where('email', '=', 'demo@iskra.local')
        .executeTakeFirstOrThrow();
      expect(demo.password_hash).toMatch(/^\$argon2id\$/);
      // Each person's name, bio and city are in their own language, and the city is a place of the data set.
      const people = await db
        .selectFrom('profiles')
        .innerJoin('users', 'users.id', 'profiles.user_id')
        .select([
          'users.email',
          'users.language',
          'profiles.name',
          'profiles.gender',
          'profiles.bio',
          'profiles.city',
          'profiles.place_id',
        ])
        .execute();
      expect(new Set(people.map((p) => p.language))).toEqual(new Set(['ru', 'en']));
      for (const person of people) {
        const script = person.language === 'ru' ? /^[А-Яа-яЁё\s-]+$/ : /^[A-Za-z\s-]+$/;
        expect(person.name, person.name).toMatch(script);
        expect(person.city, person.name).toMatch(script);
        expect(person.bio.replace(/[^A-Za-zА-Яа-яЁё]/g, ''), person.bio).toMatch(
          person.language === 'ru' ? /^[А-Яа-яЁё]*$/ : /^[A-Za-z]*$/,
        );
        expect(person.place_id, person.city).toBeGreaterThan(0);
        // A woman's name for a woman, a man's for a man (the demo account's own name is «Демо»).
        if (person.email === 'demo@iskra.local') continue;
        const gender = person.gender === 'Female' ? 'Female' : 'Male';
        expect(demoNames[person.language][gender], `${person.name} (${person.gender})`).toContain(person.name);
        expect(demoNames[person.language][gender === 'Female' ? 'Male' : 'Female']).not.toContain(person.name);
      }
      expect(new Set(people.map((p) => p.gender))).toEqual(new Set(['Male', 'Female']));
      const photoRows = await db.selectFrom('photos').select('file_name').execute();
      const files = readdirSync(path.join(dataDir, 'uploads'));
      for (const row of photoRows) expect(files).toContain(row.file_name);
      const tones = skinTones.map((hex) => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)));
      const digests = new Set<string>();
      for (const row of photoRows) {
        // Stored as an upload is: a 640x852 JPEG without EXIF.
        const bytes = readFileSync(path.join(dataDir, 'uploads', row.file_name));
        const meta = await sharp(bytes).metadata();
        expect([meta.format, meta.width, meta.height, meta.exif], row.file_name).toEqual(['jpeg', 640, 852, undefined]);
        digests.add(createHash('sha256').update(bytes).digest('hex'));
        // A face in the middle of the picture: most of the centre is one of the skin tones (a letter on a
        // gradient has none of them).
        const { data, info } = await sharp(bytes)
          .extract({ left: 240, top: 300, width: 160, height: 160 })
          .raw()
          .toBuffer({ resolveWithObject: true });
        let skin = 0;
        for (let i = 0; i < data.length; i += info.channels) {
          const [r, g, b] = [data[i] ?? 0, data[i + 1] ?? 0, data[i + 2] ?? 0];
          if (tones.some(([tr = 0, tg = 0, tb = 0]) => Math.abs(tr - r) + Math.abs(tg - g) + Math.abs(tb - b) < 30))
            skin++;
        }
        expect(skin / (info.width * info.height), row.file_name).toBeGreaterThan(0.25);
      }
      // Every photo is drawn for its person: no two the same.
      expect(digests.size).toBe(photoRows.length);
      expect(photoRows.length).toBeGreaterThanOrEqual(7);
    } finally {
      await db.destroy();
    }
    // Two start-ups and 7 profiles' photo pipelines: slow on a busy two-core machine.
  }, 120_000);
});
