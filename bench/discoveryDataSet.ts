import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { openDatabase } from '../db/client.ts';
import { migrateToLatest } from '../db/migrate.ts';
import type { Gender, PreferredGender } from '../db/schema.ts';
import { snapCoordinates } from '../server/features/profiles/locationGrid.ts';

/**
 * The synthetic discovery data set of `npm run bench` (issue 5): people in about twenty Russian cities,
 * swipes mostly among neighbours, a few heavy swipers, some blocks and the matches mutual likes imply.
 * Built with raw prepared statements in one transaction (an HTTP round per row would take hours), into a
 * schema made by the app's own migrations, so the bench measures the real tables and indexes.
 */

/** Bump when the generator changes: a cached file of another version is rebuilt. */
export const dataSetVersion = 2;

export interface DataSetSize {
  profiles: number;
  /** All swipes, heavy users' included. */
  swipes: number;
  heavyUsers: number;
  heavySwipes: number;
  blocks: number;
}

export const fullSize: DataSetSize = {
  profiles: 100_000,
  swipes: 1_000_000,
  heavyUsers: 50,
  heavySwipes: 10_000,
  blocks: 2_000,
};

export interface DataSetInfo {
  /** Profile ids of the heavy swipers (profile id = user id in this data set). */
  heavy: number[];
  /** When the swipes and sessions were made (ISO), for premium and rate-limit reasoning. */
  builtAt: string;
}

/** Name, centre and share of the people; Moscow is big enough that heavy swipers do not run out of people. */
const cities: [string, number, number, number][] = [
  ['Москва', 55.7558, 37.6173, 25],
  ['Санкт-Петербург', 59.9343, 30.3351, 10],
  ['Новосибирск', 55.0084, 82.9357, 5],
  ['Екатеринбург', 56.8389, 60.6057, 5],
  ['Казань', 55.7887, 49.1221, 5],
  ['Нижний Новгород', 56.2965, 43.9361, 4],
  ['Челябинск', 55.1644, 61.4368, 4],
  ['Самара', 53.1959, 50.1002, 4],
  ['Омск', 54.9885, 73.3242, 4],
  ['Ростов-на-Дону', 47.2357, 39.7015, 4],
  ['Уфа', 54.7388, 55.9721, 4],
  ['Красноярск', 56.0153, 92.8932, 3],
  ['Воронеж', 51.672, 39.1843, 3],
  ['Пермь', 58.0105, 56.2502, 3],
  ['Волгоград', 48.708, 44.5133, 3],
  ['Краснодар', 45.0355, 38.9753, 3],
  ['Саратов', 51.5336, 46.0343, 2],
  ['Тюмень', 57.1522, 65.5272, 2],
  ['Ижевск', 56.8526, 53.2045, 2],
  ['Владивосток', 43.1155, 131.8855, 2],
];
const maleNames = ['Алексей', 'Дмитрий', 'Иван', 'Максим', 'Сергей', 'Андрей', 'Артём', 'Михаил', 'Никита', 'Егор'];
const femaleNames = ['Анна', 'Мария', 'Елена', 'Ольга', 'Дарья', 'Анастасия', 'Екатерина', 'Софья', 'Полина', 'Алиса'];

/** A small seeded generator (mulberry32): the same data set on every machine. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Person {
  id: number;
  city: number;
  gender: Gender;
  preferred: PreferredGender;
  age: number;
  latitude: number;
  longitude: number;
}

const suits = (viewer: Person, other: Person) =>
  (viewer.preferred === 'Any' || viewer.preferred === other.gender) &&
  (other.preferred === 'Any' || other.preferred === viewer.gender);

/** Swipe keys pack (swiper, target, liked) in one number so a million of them sort and dedupe as a Float64Array. */
const idSpace = 2 ** 20;
const pack = (swiper: number, target: number, liked: boolean) => (swiper * idSpace + target) * 2 + (liked ? 1 : 0);

/** The cached data set's file, building it first when it is missing or of another version. */
export async function ensureDataSet(
  dir: string,
  size: DataSetSize = fullSize,
  log: (message: string) => void = () => {},
): Promise<{ file: string; info: DataSetInfo; builtNow: boolean; seconds: number }> {
  const file = path.join(dir, `discovery-v${dataSetVersion}-${size.profiles}.sqlite`);
  if (existsSync(file)) {
    const sqlite = new SQLite(file, { readonly: true });
    const info = readInfo(sqlite);
    sqlite.close();
    return { file, info, builtNow: false, seconds: 0 };
  }
  mkdirSync(dir, { recursive: true });
  const partial = `${file}.partial`;
  rmSync(partial, { force: true });
  const started = performance.now();
  log(`building the discovery data set (${size.profiles} profiles, ${size.swipes} swipes) into ${file} ...`);
  const handle = openDatabase({ url: `sqlite:${partial}`, dataDir: dir });
  await migrateToLatest(handle.db);
  await handle.db.destroy();
  const info = fill(partial, size);
  // Renamed only when complete, so an interrupted build is never taken for a cached one.
  rmSync(`${partial}-wal`, { force: true });
  rmSync(`${partial}-shm`, { force: true });
  renameSync(partial, file);
  return { file, info, builtNow: true, seconds: (performance.now() - started) / 1000 };
}

function readInfo(sqlite: SQLite.Database): DataSetInfo {
  const row = sqlite.prepare('select value from bench_info where key = ?').get('info') as { value: string } | undefined;
  if (!row) throw new Error('bench data set without bench_info');
  return JSON.parse(row.value) as DataSetInfo;
}

function fill(file: string, size: DataSetSize): DataSetInfo {
  const rnd = random(20261122);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)] as T;
  const sqlite = new SQLite(file);
  // A throwaway file until renamed: no journal, no syncing, no foreign-key checks (ids are made consistent here).
  sqlite.pragma('journal_mode = OFF');
  sqlite.pragma('synchronous = OFF');
  sqlite.pragma('foreign_keys = OFF');
  const now = new Date();
  const iso = (msAgo: number) => new Date(now.getTime() - msAgo).toISOString();
  const day = 86_400_000;

  const weights = cities.reduce((sum, c) => sum + c[3], 0);
  const people: Person[] = [];
  const byCity: Person[][] = cities.map(() => []);
  for (let id = 1; id <= size.profiles; id++) {
    let r = rnd() * weights;
    let city = 0;
    while (city < cities.length - 1 && (r -= (cities[city] as [string, number, number, number])[3]) > 0) city++;
    const [, lat0, lon0] = cities[city] as [string, number, number, number];
    // Uniform over a 20 km disc around the centre.
    const km = 20 * Math.sqrt(rnd());
    const angle = rnd() * 2 * Math.PI;
    const snapped = snapCoordinates(
      lat0 + (km * Math.cos(angle)) / 111.2,
      lon0 + (km * Math.sin(angle)) / (111.2 * Math.cos((lat0 * Math.PI) / 180)),
    );
    const g = rnd();
    const gender: Gender = g < 0.48 ? 'Male' : g < 0.96 ? 'Female' : 'Other';
    const preferred: PreferredGender =
      gender === 'Other' || rnd() < 0.15 ? 'Any' : gender === 'Male' ? 'Female' : 'Male';
    // Skewed towards the twenties and thirties, 18 to 60.
    const age = 18 + Math.floor(43 * rnd() ** 1.7);
    const person = { id, city, gender, preferred, age, latitude: snapped.latitude, longitude: snapped.longitude };
    people.push(person);
    byCity[city]?.push(person);
  }

  const insertUser = sqlite.prepare(
    'insert into users (id, email, password_hash, language, verified_at, banned_at, created_at, premium_until) values (?, ?, null, ?, ?, ?, ?, ?)',
  );
  const insertProfile = sqlite.prepare(
    'insert into profiles (id, user_id, name, age, gender, preferred_gender, bio, city, latitude, longitude, created_at, updated_at, private_mode, notifications) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)',
  );
  const insertPhoto = sqlite.prepare(
    'insert into photos (id, profile_id, file_name, position, created_at, blur_name) values (?, ?, ?, 0, ?, ?)',
  );
  const insertSwipe = sqlite.prepare(
    'insert into swipes (swiper_id, target_id, liked, created_at) values (?, ?, ?, ?)',
  );
  const insertMatch = sqlite.prepare(
    'insert into matches (profile_low, profile_high, created_at, unmatched_at) values (?, ?, ?, ?)',
  );
  const insertBlock = sqlite.prepare(
    'insert or ignore into blocks (blocker_id, blocked_id, created_at) values (?, ?, ?)',
  );

  // Heavy swipers: Moscow people who have swiped through their nearest 10,000 (suitable ones first), the
  // worst case for the search, whose nearest boxes are then all excluded.
  const moscow = byCity[0] ?? [];
  const heavy: Person[] = [];
  while (heavy.length < size.heavyUsers) {
    const candidate = pick(moscow);
    if (candidate.gender !== 'Other' && !heavy.includes(candidate)) heavy.push(candidate);
  }
  const keys: number[] = [];
  for (const h of heavy) {
    const ranked = moscow
      .filter((p) => p !== h)
      .map((p) => ({
        p,
        order: (suits(h, p) ? 0 : 1e6) + (p.latitude - h.latitude) ** 2 + ((p.longitude - h.longitude) * 0.56) ** 2,
      }))
      .sort((a, b) => a.order - b.order);
    for (const { p } of ranked.slice(0, size.heavySwipes)) keys.push(pack(h.id, p.id, rnd() < 0.3));
  }
  // Everyone else: a few swipes each on random neighbours, about half likes, and a share of those liked back.
  const heavyIds = new Set(heavy.map((h) => h.id));
  while (keys.length < size.swipes) {
    const swiper = pick(people);
    if (heavyIds.has(swiper.id)) continue;
    const target = pick(byCity[swiper.city] ?? people);
    if (target === swiper) continue;
    const liked = rnd() < (suits(swiper, target) ? 0.6 : 0.1);
    keys.push(pack(swiper.id, target.id, liked));
    if (liked && rnd() < 0.1 && !heavyIds.has(target.id)) keys.push(pack(target.id, swiper.id, true));
  }
  // A pair drawn twice keeps one draw (the dislike, which sorts first); matches follow the kept likes.
  const sorted = Float64Array.from(keys).sort();
  const kept: number[] = [];
  for (const key of sorted)
    if (kept.length === 0 || Math.floor((kept[kept.length - 1] as number) / 2) !== Math.floor(key / 2)) kept.push(key);
  const likes = new Set<number>();
  for (const key of kept) if (key % 2 === 1) likes.add(Math.floor(key / 2));

  const started = now.getTime();
  sqlite.transaction(() => {
    for (const p of people) {
      const banned = rnd() < 0.005;
      const premium = rnd() < 0.04;
      insertUser.run(
        p.id,
        `bench${p.id}@example.com`,
        'ru',
        iso(90 * day),
        banned ? iso(day) : null,
        iso(120 * day),
        premium ? new Date(started + 30 * day).toISOString() : null,
      );
      const name = pick(
        p.gender === 'Male' ? maleNames : p.gender === 'Female' ? femaleNames : [...maleNames, ...femaleNames],
      );
      const [cityName] = cities[p.city] as [string, number, number, number];
      insertProfile.run(
        p.id,
        p.id,
        name,
        p.age,
        p.gender,
        p.preferred,
        `Привет! Я ${name}, люблю путешествия и кофе.`,
        cityName,
        p.latitude,
        p.longitude,
        iso(100 * day),
        iso(10 * day),
        rnd() < 0.03 ? 1 : 0,
      );
      const hex = p.id.toString(16).padStart(31, '0');
      insertPhoto.run(p.id, p.id, `a${hex}.jpg`, iso(100 * day), `b${hex}.jpg`);
    }
    for (const key of kept) {
      const pair = Math.floor(key / 2);
      const swiper = Math.floor(pair / idSpace);
      const target = pair % idSpace;
      const liked = key % 2 === 1 ? 1 : 0;
      insertSwipe.run(swiper, target, liked, iso(rnd() * 30 * day));
      if (liked && swiper < target && likes.has(target * idSpace + swiper))
        insertMatch.run(swiper, target, iso(rnd() * day), rnd() < 0.05 ? iso(0) : null);
    }
    for (let i = 0; i < size.blocks; i++) {
      const blocker = pick(people);
      const blocked = pick(byCity[blocker.city] ?? people);
      if (blocked !== blocker) insertBlock.run(blocker.id, blocked.id, iso(rnd() * 30 * day));
    }
    sqlite.exec('create table bench_info (key text primary key, value text not null)');
    sqlite
      .prepare('insert into bench_info (key, value) values (?, ?)')
      .run('info', JSON.stringify({ heavy: heavy.map((h) => h.id), builtAt: now.toISOString() } satisfies DataSetInfo));
  })();
  sqlite.pragma('journal_mode = WAL');
  sqlite.close();
  return { heavy: heavy.map((h) => h.id), builtAt: now.toISOString() };
}
