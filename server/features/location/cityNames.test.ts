import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMigrator } from '../../../db/migrate.ts';
import type { ErrorResponse } from '../../contract/errors.ts';
import type { OwnProfileResponse } from '../../contract/profiles.ts';
import { signUpVerified } from '../../test/accounts.ts';
import { json } from '../../test/browser.ts';
import { png } from '../../test/images.ts';
import { createPerson, type Person } from '../../test/people.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { createTestDatabase, testDialects } from '../../test/testDatabase.ts';

const moscowId = 524901;
const petersburgId = 498817;

function form(fields: Record<string, string>, photo: Buffer): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.append(key, value);
  data.append('photos', new Blob([new Uint8Array(photo)], { type: 'image/png' }), 'p.png');
  return data;
}

/** Issue #20, point 5: a city is a place, named in each reader's language; an unknown place stays as typed. */
describe.each(testDialects())('city names in the reader language on %s', (dialect) => {
  let app: TestApp;
  let photo: Buffer;
  /** Each test places its people at a spot of its own, so the nearest card is the one it made. */
  let spot = 0;
  beforeAll(async () => {
    app = await createTestApp(dialect);
    photo = await png(300, 400);
  });
  afterAll(async () => {
    await app.close();
  });

  async function creator(fields: Record<string, string>) {
    const { browser } = await signUpVerified(app);
    const res = await browser.postForm(
      '/api/create_profile',
      form({ name: 'Vera', age: '29', gender: 'Female', ...fields }, photo),
    );
    return { browser, res };
  }

  /** A Russian and an English reader (men near the creator, so her card comes first) and the creator, made with `fields`. */
  async function scene(fields: Record<string, string>) {
    spot += 1;
    const lat = 10 + spot * 2;
    const at: [number, number] = [lat, 20];
    const russian = await createPerson(app, { gender: 'Male', at });
    const english = await createPerson(app, { gender: 'Male', at });
    expect((await english.browser.post('/api/language', { language: 'en' })).status).toBe(200);
    const made = await creator({ ...fields, latitude: String(lat), longitude: '20' });
    expect(made.res.status).toBe(201);
    const { profile } = await json<{ profile: OwnProfileResponse }>(made.res);
    return { russian, english, profile, browser: made.browser };
  }

  async function cardCity(reader: Person, profileId: number): Promise<string> {
    const res = await reader.browser.get('/api/search');
    expect(res.status).toBe(200);
    const card = await json<{ profile_id: number; city: string }>(res);
    expect(card.profile_id).toBe(profileId);
    return card.city;
  }

  it('a creator who typed Moscow is «Москва» to a Russian reader and Moscow to an English one, on every screen', async () => {
    const { russian, english, profile, browser } = await scene({ city: 'Moscow' });
    // The creator's account is Russian (the default): her own profile reads «Москва» too.
    expect(profile).toMatchObject({ city: 'Москва', place_id: moscowId });
    const stored = await app.database.db
      .selectFrom('profiles')
      .select(['city', 'place_id'])
      .where('id', '=', profile.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ city: 'Moscow', place_id: moscowId });

    expect(await cardCity(russian, profile.id)).toBe('Москва');
    expect(await cardCity(english, profile.id)).toBe('Moscow');

    // A match: the profile screen of each reader names the city in their language.
    for (const reader of [russian, english]) {
      expect((await reader.browser.post('/api/like', { profile_id: profile.id })).status).toBe(200);
      const back = await browser.post('/api/like', { profile_id: reader.profileId });
      expect(await json(back)).toMatchObject({ match: true });
    }
    const shown = async (reader: Person) =>
      (
        await json<{ users_profile: { city: string } }>(
          await reader.browser.get(`/api/users_profile?profile_id=${profile.id}`),
        )
      ).users_profile.city;
    expect(await shown(russian)).toBe('Москва');
    expect(await shown(english)).toBe('Moscow');

    // A premium English reader she liked first sees her on the likers' profile screen in English.
    const premium = await createPerson(app, { gender: 'Male', at: [10 + spot * 2, 20], premium: true });
    expect((await premium.browser.post('/api/language', { language: 'en' })).status).toBe(200);
    expect((await browser.post('/api/like', { profile_id: premium.profileId })).status).toBe(200);
    const liker = await premium.browser.get(`/api/users_profile_liker?profile_id=${profile.id}`);
    expect(liker.status).toBe(200);
    expect((await json<{ users_profile: { city: string } }>(liker)).users_profile.city).toBe('Moscow');

    // The owner switches to English: her own profile follows.
    expect((await browser.post('/api/language', { language: 'en' })).status).toBe(200);
    expect(await json(await browser.get('/api/profile'))).toMatchObject({ city: 'Moscow', place_id: moscowId });
  });

  it('a place chosen by id (with no typed text) reads in each language; an edit to another place id follows', async () => {
    const { russian, english, profile, browser } = await scene({ city: '', place_id: String(moscowId) });
    expect(profile).toMatchObject({ city: 'Москва', place_id: moscowId });
    expect(await cardCity(russian, profile.id)).toBe('Москва');
    expect(await cardCity(english, profile.id)).toBe('Moscow');

    const edit = await browser.post('/api/edit_profile', { city: 'Питер', place_id: petersburgId });
    expect(edit.status).toBe(200);
    expect((await json<{ profile: OwnProfileResponse }>(edit)).profile).toMatchObject({
      city: 'Санкт-Петербург',
      place_id: petersburgId,
    });
    expect(await cardCity(english, profile.id)).toBe('Saint Petersburg');

    // A typed name alone (the edit form's text) becomes its place again.
    expect((await browser.post('/api/edit_profile', { city: 'санкт-петербург' })).status).toBe(200);
    expect(await cardCity(english, profile.id)).toBe('Saint Petersburg');
  });

  it('a place the data set does not know is shown as typed, to everyone', async () => {
    const { russian, english, profile } = await scene({ city: 'Малые Кочки' });
    expect(profile).toMatchObject({ city: 'Малые Кочки', place_id: null });
    expect(await cardCity(russian, profile.id)).toBe('Малые Кочки');
    expect(await cardCity(english, profile.id)).toBe('Малые Кочки');
  });

  it('refuses a bad place id with a 400 JSON error and creates nothing', async () => {
    const { browser, userId } = await signUpVerified(app);
    for (const bad of ['abc', '0', '-5', '1.5', '99999999999', '1']) {
      const res = await browser.postForm(
        '/api/create_profile',
        form({ name: 'Vera', age: '29', gender: 'Female', city: 'Moscow', place_id: bad }, photo),
      );
      expect(res.status, bad).toBe(400);
      const body = await json<ErrorResponse>(res);
      expect(body.error, bad).toMatch(/place/i);
      expect(typeof body.code).toBe('string');
    }
    expect(
      await app.database.db.selectFrom('profiles').select('id').where('user_id', '=', userId).executeTakeFirst(),
    ).toBeUndefined();

    const { browser: owner, profile } = await scene({ city: 'Moscow' });
    for (const bad of [1, 'x', -1, 2.5]) {
      const res = await owner.post('/api/edit_profile', { place_id: bad });
      expect(res.status).toBe(400);
      expect((await json<ErrorResponse>(res)).code).toBeTruthy();
    }
    const res = await owner.post('/api/edit_profile', { place_id: 1 });
    expect((await json<ErrorResponse>(res)).code).toBe('unknown_place');
    expect(await json(await owner.get('/api/profile'))).toMatchObject({ id: profile.id, place_id: moscowId });
  });
});

describe.each(testDialects())('the place id migration on %s', (dialect) => {
  it('maps existing typed cities to places by any of their names, ignoring case, and keeps the typed text', async () => {
    const database = await createTestDatabase(dialect);
    try {
      const db = database.db;
      const migrator = createMigrator(db, dialect === 'postgres' ? await currentSchema(database) : undefined);
      // Back to the moment before the migration, with profiles typed the old way.
      await migrator.migrateTo('2026_11_24_1230_session_devices');
      const typed = ['Moscow', 'МОСКВА', 'санкт-петербург', 'Kazan, Russia', '  Новосибирск ', 'Малые Кочки', ''];
      const now = new Date().toISOString();
      for (const [i, city] of typed.entries()) {
        const user = await db
          .insertInto('users')
          .values({
            email: `m${i}@example.com`,
            password_hash: null,
            language: 'ru',
            verified_at: now,
            banned_at: null,
            created_at: now,
            premium_until: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        // No place_id: the column does not exist yet.
        await db
          .insertInto('profiles')
          .values({
            user_id: user.id,
            name: 'P',
            age: 30,
            gender: 'Female',
            preferred_gender: 'Male',
            bio: '',
            city,
            created_at: now,
            updated_at: now,
          })
          .execute();
      }
      const { error } = await migrator.migrateToLatest();
      expect(error).toBeUndefined();
      const rows = await db.selectFrom('profiles').select(['city', 'place_id']).orderBy('id').execute();
      expect(rows).toEqual([
        { city: 'Moscow', place_id: moscowId },
        { city: 'МОСКВА', place_id: moscowId },
        { city: 'санкт-петербург', place_id: petersburgId },
        { city: 'Kazan, Russia', place_id: 551487 },
        { city: '  Новосибирск ', place_id: 1496747 },
        { city: 'Малые Кочки', place_id: null },
        { city: '', place_id: null },
      ]);
    } finally {
      await database.drop();
    }
  });
});

async function currentSchema(database: { db: TestApp['database']['db'] }): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db);
  return rows[0]?.schema ?? 'public';
}
