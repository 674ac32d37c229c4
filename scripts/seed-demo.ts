/**
 * `npm run demo` (this script, then the server): fills the database named by the environment with a few
 * hundred demo profiles in several Russian cities, with generated photos, and a demo account
 * (demo@iskra.local / demo12345, verified, with a profile in Moscow) so a newcomer can look around at once.
 * Runs once: a database that already has the demo account is left as it is.
 */
import path from 'node:path';
import { openDatabase, toolLockWaitMs } from '../db/client.ts';
import { migrateToLatest } from '../db/migrate.ts';
import type { Gender } from '../db/schema.ts';
import type { Language } from '../locales/index.ts';
import { PasswordHasher } from '../server/features/accounts/passwords.ts';
import { findUserByEmail, insertUser } from '../server/features/accounts/repository.ts';
import { cityGeocoder, cityName, type City } from '../server/features/location/geocoder.ts';
import type { StoredPhoto } from '../server/features/photos/photoStore.ts';
import { snapCoordinates } from '../server/features/profiles/locationGrid.ts';
import { insertProfile, setPhotos } from '../server/features/profiles/repository.ts';
import { parseEnv } from '../server/env.ts';
import { photoBucketFromEnv } from '../server/composition.ts';
import { buildPhotoStore } from '../server/services.ts';
import { demoBios, demoNames } from './demoPeople.ts';
import { randomLook, renderPortraits, type PersonLook } from './demoPortrait.ts';
import { demoEmail } from './demoTelegram.ts';

export const demoPassword = 'demo12345';
const profileCount = Number(process.env.DEMO_PROFILES ?? 300);

/**
 * A demo city: its name in the city data set (the geocoder resolves it to its place id, which each reader
 * sees in their own language) and its centre.
 */
interface DemoCity {
  en: string;
  lat: number;
  lon: number;
  weight: number;
}
const moscow: DemoCity = { en: 'Moscow', lat: 55.7558, lon: 37.6173, weight: 5 };
const cities: DemoCity[] = [
  moscow,
  { en: 'Saint Petersburg', lat: 59.9386, lon: 30.3141, weight: 3 },
  { en: 'Kazan', lat: 55.7964, lon: 49.1089, weight: 1 },
  { en: 'Novosibirsk', lat: 55.0084, lon: 82.9357, weight: 1 },
  { en: 'Yekaterinburg', lat: 56.8389, lon: 60.6057, weight: 1 },
  { en: 'Nizhny Novgorod', lat: 56.3269, lon: 44.0059, weight: 1 },
];
/** The data set's place of a demo city: a name it does not know is a mistake in this file. */
function placeOf(city: DemoCity): City {
  const place = cityGeocoder().findByName(city.en);
  if (!place) throw new Error(`${city.en} is not in the city data set`);
  return place;
}

/** A deterministic pseudo-random sequence, so every demo database looks the same. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** Up to this many people's photos are drawn at once: enough to keep both cores busy, not a burst of memory. */
const renderConcurrency = 4;

/** `work(item)` for every item, at most `limit` at a time, results in the items' order. */
async function mapBounded<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let nextIndex = 0;
  const worker = async () => {
    while (nextIndex < items.length) {
      const index = nextIndex++;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

const env = parseEnv(process.env);
const { db, description, schema } = openDatabase({
  url: env.DATABASE_URL,
  dataDir: env.DATA_DIR,
  searchPath: env.DATABASE_SCHEMA,
  lockWaitMs: toolLockWaitMs,
});
try {
  await migrateToLatest(db, schema);
  if (await findUserByEmail(db, demoEmail)) {
    console.log(`${description}: demo data already there (sign in as ${demoEmail} / ${demoPassword})`);
  } else {
    // Where the server will look for them: the bucket when S3_BUCKET is set.
    const store = buildPhotoStore({
      uploadsDir: path.join(env.DATA_DIR, 'uploads'),
      photoBucket: photoBucketFromEnv(env),
    });
    const next = random(42);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
    const weighted = cities.flatMap((c) => Array<typeof c>(c.weight).fill(c));
    const now = new Date().toISOString();
    const start = performance.now();

    const passwordHash = await new PasswordHasher().hash(demoPassword);
    interface DemoPerson {
      email: string;
      password: string | null;
      language: Language;
      gender: Gender;
      city: DemoCity;
      name: string;
      age: number;
      bio: string;
      look: PersonLook;
      photoCount: number;
      /** The photos' own random sequence, so drawing them in parallel leaves every database the same. */
      photoSeed: number;
    }
    const person = (fields: Omit<DemoPerson, 'look' | 'photoCount' | 'photoSeed'>): DemoPerson => ({
      ...fields,
      look: randomLook(fields.gender === 'Female' ? 'Female' : 'Male', fields.age, next),
      photoCount: 1 + Math.floor(next() * 3),
      photoSeed: Math.floor(next() * 2 ** 31),
    });
    const people: DemoPerson[] = [
      person({
        email: demoEmail,
        password: passwordHash,
        language: 'ru',
        gender: 'Male',
        city: moscow,
        name: 'Демо',
        age: 29,
        bio: '',
      }),
    ];
    for (let i = 0; i < profileCount; i++) {
      const gender: 'Male' | 'Female' = next() < 0.5 ? 'Female' : 'Male';
      // A third of the people speak English.
      const language: Language = (i + 1) % 3 === 0 ? 'en' : 'ru';
      people.push(
        person({
          email: `demo-${i}@iskra.local`,
          password: null,
          language,
          gender,
          city: pick(weighted),
          name: pick(demoNames[language][gender]),
          age: 18 + Math.floor(next() * 30),
          bio: pick(demoBios[language][gender]),
        }),
      );
    }
    const photos = await mapBounded(people, renderConcurrency, async (p) =>
      Promise.all(
        (await renderPortraits(p.look, p.photoCount, random(p.photoSeed))).map((processed) => store.save(processed)),
      ),
    );
    for (const [index, person] of people.entries()) {
      const place = placeOf(person.city);
      const files: StoredPhoto[] = photos[index] ?? [];
      // Within about 15 km of the centre, then snapped like every real profile.
      const spot = snapCoordinates(person.city.lat + (next() - 0.5) * 0.25, person.city.lon + (next() - 0.5) * 0.4);
      await db.transaction().execute(async (trx) => {
        const userId = await insertUser(trx, {
          email: person.email,
          password_hash: person.password,
          language: person.language,
          verified_at: now,
          banned_at: null,
          created_at: now,
        });
        const profileId = await insertProfile(trx, {
          user_id: userId,
          name: person.name,
          age: person.age,
          gender: person.gender,
          preferred_gender: person.gender === 'Male' ? 'Female' : 'Male',
          bio: person.bio,
          city: cityName(place, person.language),
          place_id: place.id,
          latitude: spot.latitude,
          longitude: spot.longitude,
          created_at: now,
          updated_at: now,
        });
        await setPhotos(trx, profileId, files, now);
      });
    }
    console.log(
      `${description}: ${people.length} demo profiles in ${cities.length} cities, ${((performance.now() - start) / 1000).toFixed(1)} s. ` +
        `Sign in as ${demoEmail} / ${demoPassword}`,
    );
  }
} finally {
  await db.destroy();
}
