import type { Gender, PreferredGender, ProfileId, UserId } from '../../db/schema.ts';
import type { Language } from '../../locales/index.ts';
import { hashSessionId, newSessionId } from '../features/sessions/sessionIds.ts';
import { snapCoordinates } from '../features/profiles/locationGrid.ts';
import { Browser } from './browser.ts';
import type { TestApp } from './testApp.ts';
import type { Clock } from '../clock.ts';

export interface PersonOptions {
  name?: string;
  gender?: Gender;
  preferred?: PreferredGender;
  age?: number;
  /** True position; stored snapped, as the API would. Omit for a profile without location. */
  at?: [number, number] | null;
  premium?: boolean;
  privateMode?: boolean;
  /** When last active (profiles.active_at): now unless given; null for never. */
  activeAt?: Date | null;
  /** False: others never see how recently they were active. */
  showActivity?: boolean;
  verified?: boolean;
  banned?: boolean;
  photos?: number;
  /** The account's language (the reader's, for texts the API names in it); Russian by default. */
  language?: Language;
  /** Answered prompts, stored as the API stores them. */
  prompts?: { prompt_id: number; answer: string }[];
}

export interface Person {
  browser: Browser;
  userId: UserId;
  profileId: ProfileId;
  name: string;
}

let counter = 0;

/**
 * A person with a profile, made straight in the database (an argon2 hash and a sharp re-encode per person
 * would make discovery tests slow), signed in through a real session cookie so every request goes through
 * the real authentication.
 */
/** What createPerson needs of a test app: its database, its clock and its address (a spawned server will do). */
export interface PersonHost {
  database: Pick<TestApp['database'], 'db'>;
  clock: Clock;
  url: string;
}

export async function createPerson(app: PersonHost, options: PersonOptions = {}): Promise<Person> {
  counter += 1;
  const db = app.database.db;
  const now = app.clock.now();
  const gender = options.gender ?? 'Female';
  const name = options.name ?? `Person${counter}`;
  const user = await db
    .insertInto('users')
    .values({
      email: `person${counter}-${process.pid}-${Date.now()}@example.com`,
      password_hash: null,
      language: options.language ?? 'ru',
      verified_at: options.verified === false ? null : now.toISOString(),
      banned_at: options.banned ? now.toISOString() : null,
      created_at: now.toISOString(),
      premium_until: options.premium ? new Date(now.getTime() + 30 * 86_400_000).toISOString() : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const at = options.at === undefined ? ([55.7558, 37.6173] as [number, number]) : options.at;
  const snapped = at ? snapCoordinates(at[0], at[1]) : null;
  const profile = await db
    .insertInto('profiles')
    .values({
      user_id: user.id,
      name,
      age: options.age ?? 30,
      gender,
      preferred_gender: options.preferred ?? (gender === 'Male' ? 'Female' : gender === 'Female' ? 'Male' : 'Any'),
      bio: `Bio of ${name}`,
      city: 'Москва',
      latitude: snapped?.latitude ?? null,
      longitude: snapped?.longitude ?? null,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
      private_mode: options.privateMode ? 1 : 0,
      ...(options.prompts ? { prompts: JSON.stringify(options.prompts) } : {}),
      // Signed in just now, as a real sign-in marks them (sessions/service.ts), unless the test says otherwise.
      active_at: options.activeAt === undefined ? now.toISOString() : (options.activeAt?.toISOString() ?? null),
      show_activity: options.showActivity === false ? 0 : 1,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (let i = 0; i < (options.photos ?? 1); i++) {
    await db
      .insertInto('photos')
      .values({
        profile_id: profile.id,
        file_name: `${String(profile.id).padStart(8, '0')}${'a'.repeat(23)}${i}.jpg`,
        blur_name: `${String(profile.id).padStart(8, '0')}${'b'.repeat(23)}${i}.jpg`,
        position: i,
        created_at: now.toISOString(),
      })
      .execute();
  }
  const sessionId = newSessionId();
  await db
    .insertInto('sessions')
    .values({
      id_hash: hashSessionId(sessionId),
      user_id: user.id,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + 86_400_000 * 30).toISOString(),
    })
    .execute();
  const browser = new Browser(app.url);
  browser.setCookie('iskra_session', sessionId);
  return { browser, userId: user.id, profileId: profile.id, name };
}

/** Every search answer in turn (the app's prefetch pattern: exclude what it already holds) until 404. */
export async function searchAll(
  person: Person,
  params: Record<string, string> = {},
  max = 20,
): Promise<{ id: number; distance: number | null }[]> {
  const seen: { id: number; distance: number | null }[] = [];
  for (let i = 0; i < max; i++) {
    const query = new URLSearchParams({ ...params, exclude: seen.map((s) => s.id).join(',') });
    const res = await person.browser.get(`/api/search?${query.toString()}`);
    if (res.status === 404) return seen;
    if (res.status !== 200) throw new Error(`search answered ${res.status}: ${await res.text()}`);
    const body = (await res.json()) as { profile_id: number; distance: number | null };
    seen.push({ id: body.profile_id, distance: body.distance });
  }
  return seen;
}

/**
 * `count` signed-in users without profiles (accounts only), inserted a few hundred rows per statement: the
 * crowd of idle tabs a bench holds open. Answers each one's session cookie value.
 */
export async function createSignedInUsers(app: PersonHost, count: number): Promise<string[]> {
  const db = app.database.db;
  const now = app.clock.now();
  const cookies: string[] = [];
  const perStatement = 500;
  for (let start = 0; start < count; start += perStatement) {
    const size = Math.min(perStatement, count - start);
    counter += 1;
    const batch = counter;
    const users = await db
      .insertInto('users')
      .values(
        Array.from({ length: size }, (_, i) => ({
          email: `crowd${batch}-${i}-${process.pid}-${Date.now()}@example.com`,
          password_hash: null,
          language: 'ru' as const,
          verified_at: now.toISOString(),
          banned_at: null,
          created_at: now.toISOString(),
          premium_until: null,
        })),
      )
      .returning('id')
      .execute();
    const sessions = users.map((user) => ({ sessionId: newSessionId(), userId: user.id }));
    await db
      .insertInto('sessions')
      .values(
        sessions.map(({ sessionId, userId }) => ({
          id_hash: hashSessionId(sessionId),
          user_id: userId,
          created_at: now.toISOString(),
          expires_at: new Date(now.getTime() + 86_400_000 * 30).toISOString(),
        })),
      )
      .execute();
    cookies.push(...sessions.map((s) => s.sessionId));
  }
  return cookies;
}
