/**
 * `npm run demo` (this script, then the server): fills the database named by the environment with a few
 * hundred demo profiles in several Russian cities, with generated photos, and a demo account
 * (demo@iskra.local / demo12345, verified, with a profile in Moscow) so a newcomer can look around at once.
 * Runs once: a database that already has the demo account is left as it is.
 */
import path from 'node:path';
import sharp from 'sharp';
import { openDatabase, toolLockWaitMs } from '../db/client.ts';
import { migrateToLatest } from '../db/migrate.ts';
import type { Gender } from '../db/schema.ts';
import type { Language } from '../locales/index.ts';
import { PasswordHasher } from '../server/features/accounts/passwords.ts';
import { findUserByEmail, insertUser } from '../server/features/accounts/repository.ts';
import { derivedImages, photoHeight, photoWidth, type ProcessedPhoto } from '../server/features/photos/photoPipeline.ts';
import { cityGeocoder, cityName, type City } from '../server/features/location/geocoder.ts';
import type { StoredPhoto } from '../server/features/photos/photoStore.ts';
import { snapCoordinates } from '../server/features/profiles/locationGrid.ts';
import { insertProfile, setPhotos } from '../server/features/profiles/repository.ts';
import { parseEnv } from '../server/env.ts';
import { photoBucketFromEnv } from '../server/composition.ts';
import { buildPhotoStore } from '../server/services.ts';
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
/**
 * A demo person speaks Russian or English, and everything they wrote is in that language: their name, their
 * bio and their city as typed (kept beside the place id, as a real profile's typed text is).
 */
const names: Record<Language, Record<'Male' | 'Female', string[]>> = {
  ru: {
    Female: ['Анна', 'Мария', 'Екатерина', 'Ольга', 'Дарья', 'Алиса', 'Полина', 'Софья', 'Вера', 'Ксения'],
    Male: ['Иван', 'Алексей', 'Дмитрий', 'Сергей', 'Максим', 'Артём', 'Никита', 'Павел', 'Егор', 'Михаил'],
  },
  en: {
    Female: ['Anna', 'Maria', 'Kate', 'Olga', 'Daria', 'Alice', 'Polina', 'Sofia'],
    Male: ['Ivan', 'Alexey', 'Dmitry', 'Sergey', 'Max', 'Artem', 'Nikita', 'Pavel'],
  },
};
const bios: Record<Language, string[]> = {
  ru: [
    'Люблю горы, кофе и долгие прогулки по городу.',
    'Ищу того, с кем можно смеяться до слёз.',
    'Фотограф-любитель, кошатник, иногда бегаю марафоны.',
    'Готовлю лучшую пасту в городе. Проверим?',
    '',
  ],
  en: ['Coffee, books and weekend trips. Say hi!', 'Into climbing, jazz and bad puns.', ''],
};

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

async function demoPhoto(hue: number, initial: string): Promise<ProcessedPhoto> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${photoWidth}" height="${photoHeight}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="hsl(${hue},70%,70%)"/><stop offset="1" stop-color="hsl(${(hue + 50) % 360},60%,45%)"/>
    </linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>
    <circle cx="320" cy="330" r="125" fill="rgba(255,255,255,0.35)"/>
    <path d="M110 852 C110 600 530 600 530 852 Z" fill="rgba(255,255,255,0.35)"/>
    <text x="320" y="375" font-family="sans-serif" font-size="130" font-weight="700" text-anchor="middle" fill="white">${initial}</text>
  </svg>`;
  const photo = await sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer();
  return { photo, ...(await derivedImages(photo)) };
}

const env = parseEnv(process.env);
const { db, description, schema } = openDatabase({ url: env.DATABASE_URL, dataDir: env.DATA_DIR, searchPath: env.DATABASE_SCHEMA, lockWaitMs: toolLockWaitMs });
try {
  await migrateToLatest(db, schema);
  if (await findUserByEmail(db, demoEmail)) {
    console.log(`${description}: demo data already there (sign in as ${demoEmail} / ${demoPassword})`);
  } else {
    // Where the server will look for them: the bucket when S3_BUCKET is set.
    const store = buildPhotoStore({ uploadsDir: path.join(env.DATA_DIR, 'uploads'), photoBucket: photoBucketFromEnv(env) });
    const next = random(42);
    const pick = <T>(list: T[]): T => list[Math.floor(next() * list.length)] as T;
    const weighted = cities.flatMap((c) => Array<typeof c>(c.weight).fill(c));
    const now = new Date().toISOString();
    const start = performance.now();

    const passwordHash = await new PasswordHasher().hash(demoPassword);
    const people: { email: string; password: string | null; language: Language; gender: Gender; city: DemoCity; name: string; age: number }[] = [
      { email: demoEmail, password: passwordHash, language: 'ru', gender: 'Male', city: moscow, name: 'Демо', age: 29 },
    ];
    for (let i = 0; i < profileCount; i++) {
      const gender: 'Male' | 'Female' = next() < 0.5 ? 'Female' : 'Male';
      // A third of the people speak English.
      const language: Language = (i + 1) % 3 === 0 ? 'en' : 'ru';
      people.push({
        email: `demo-${i}@iskra.local`,
        password: null,
        language,
        gender,
        city: pick(weighted),
        name: pick(names[language][gender]),
        age: 18 + Math.floor(next() * 30),
      });
    }
    for (const person of people) {
      const place = placeOf(person.city);
      const photoCount = 1 + Math.floor(next() * 3);
      const files: StoredPhoto[] = [];
      for (let p = 0; p < photoCount; p++) files.push(await store.save(await demoPhoto(Math.floor(next() * 360), person.name.slice(0, 1))));
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
          bio: pick(bios[person.language]),
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
