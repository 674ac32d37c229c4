import { existsSync, utimesSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProfileId } from '../../../db/schema.ts';
import { poseIds, type VerificationState } from '../../contract/photoVerification.ts';
import type { OwnProfileResponse } from '../../contract/profiles.ts';
import type { SearchResult, UsersProfileResponse } from '../../contract/discovery.ts';
import { createLogger } from '../../logger.ts';
import { json } from '../../test/browser.ts';
import { jpegWithGps } from '../../test/images.ts';
import { createPerson, type Person } from '../../test/people.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';
import { DiskPhotoStore } from '../photos/index.ts';
import { jobNamed, runJob } from '../jobs/index.ts';
import { offeredPose } from '../../test/offeredPose.ts';
import { insertPhotoFace } from './repository.ts';
import { attemptsPerDay, poseTokenSeconds } from './service.ts';

/** The screen's form for a pose this person was offered. */
async function offeredForm(person: Person, selfie: Buffer): Promise<FormData> {
  return selfieForm(selfie, { ...(await offeredPose(person.browser)), consent: 'true' });
}

/** The verification screen's form: a selfie, the pose asked (with the token of its offer), the consent box. */
function selfieForm(selfie: Buffer, fields: Record<string, string>) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append('selfie', new Blob([new Uint8Array(selfie)], { type: 'image/jpeg' }), 'selfie.jpg');
  return form;
}

/** Without models (MODERATION_ML=off, the tests' default): the review path, permissions, consent, badge, holds. */
describe.each(testDialects())('photo verification without models on %s', (dialect) => {
  let app: TestApp;
  let selfie: Buffer;

  beforeAll(async () => {
    app = await createTestApp(dialect);
    selfie = await jpegWithGps(900, 1200);
  });
  afterAll(async () => {
    await app.close();
  });

  const db = () => app.database.db;
  const verifications = (profileId: ProfileId) =>
    db().selectFrom('photo_verifications').selectAll().where('profile_id', '=', profileId).orderBy('id').execute();

  it('answers 401 to a visitor and 409 profile_required to an account without a profile', async () => {
    const visitor = await fetch(`${app.url}/api/verification`);
    expect(visitor.status).toBe(401);
    const person = await createPerson(app);
    await db().deleteFrom('profiles').where('id', '=', person.profileId).execute();
    const res = await person.browser.get('/api/verification');
    expect(res.status).toBe(409);
    expect((await json(res)).code).toBe('profile_required');
  });

  it('shows status none, a pose from the list in the reader’s language, and no consent', async () => {
    const ru = await createPerson(app, { language: 'ru' });
    const state = await json<VerificationState>(await ru.browser.get('/api/verification'));
    expect(state.status).toBe('none');
    expect(state.reason).toBeNull();
    expect(state.consent).toBe(false);
    expect(poseIds).toContain(state.pose.id);
    expect(state.pose.text).toMatch(/[а-яё]/i);
    const en = await createPerson(app, { language: 'en' });
    const english = await json<VerificationState>(await en.browser.get('/api/verification'));
    expect(english.pose.text).toMatch(/^[A-Za-z ]+$/);
  });

  it('refuses a selfie without consent, with a pose not offered, or not an image, and changes nothing', async () => {
    const person = await createPerson(app);
    const offer = await offeredPose(person.browser);
    const cases: [FormData, string][] = [
      [selfieForm(selfie, { ...offer }), 'invalid_input'],
      [selfieForm(selfie, { ...offer, consent: 'false' }), 'invalid_input'],
      [selfieForm(selfie, { pose_id: 'wink', pose_token: offer.pose_token, consent: 'true' }), 'invalid_input'],
      [selfieForm(selfie, { pose_id: offer.pose_id, consent: 'true' }), 'invalid_input'],
      [selfieForm(Buffer.from('not an image at all'), { ...offer, consent: 'true' }), 'invalid_image'],
    ];
    for (const [form, code] of cases) {
      const res = await person.browser.postForm('/api/verification', form);
      expect(res.status).toBe(400);
      expect((await json(res)).code).toBe(code);
    }
    const missing = new FormData();
    missing.append('pose_id', offer.pose_id);
    missing.append('pose_token', offer.pose_token);
    missing.append('consent', 'true');
    const noFile = await person.browser.postForm('/api/verification', missing);
    expect(noFile.status).toBe(400);
    expect(await verifications(person.profileId)).toEqual([]);
    const profile = await db()
      .selectFrom('profiles')
      .select('face_consent_at')
      .where('id', '=', person.profileId)
      .executeTakeFirstOrThrow();
    expect(profile.face_consent_at).toBeNull();
  });

  it('sends every selfie to a moderator when the models are off, keeps it without EXIF, and takes one at a time', async () => {
    const person = await createPerson(app);
    const res = await person.browser.postForm('/api/verification', await offeredForm(person, selfie));
    expect(res.status).toBe(200);
    const state = await json<VerificationState>(res);
    expect(state).toMatchObject({ status: 'pending', reason: 'review', consent: true });
    const [row] = await verifications(person.profileId);
    expect(row).toMatchObject({ status: 'pending', reason: 'review', decided_at: null });
    expect(row?.selfie_name).toMatch(/^[0-9a-f]{32}\.jpg$/);
    // Stored as the photo pipeline stores photos: re-encoded, no EXIF or GPS left.
    const stored = await fetch(`${app.url}/api/uploads/${row?.selfie_name ?? ''}`);
    expect(stored.headers.get('cache-control')).toContain('immutable');
    const meta = await sharp(Buffer.from(await stored.arrayBuffer())).metadata();
    expect(meta.exif).toBeUndefined();
    expect([meta.width, meta.height]).toEqual([640, 852]);
    // Not verified, and a second selfie waits for the first to be decided.
    const again = await person.browser.postForm('/api/verification', await offeredForm(person, selfie));
    expect(again.status).toBe(409);
    expect((await json(again)).code).toBe('verification_pending');
    expect(await verifications(person.profileId)).toHaveLength(1);
    const own = await json<OwnProfileResponse>(await person.browser.get('/api/profile'));
    expect(own.verified).toBe(false);
    expect((await json<VerificationState>(await person.browser.get('/api/verification'))).status).toBe('pending');
  });

  it('the orphan sweep keeps a selfie waiting for a moderator and removes one nobody names', async () => {
    const person = await createPerson(app);
    await person.browser.postForm('/api/verification', await offeredForm(person, selfie));
    const [row] = await verifications(person.profileId);
    const name = row?.selfie_name ?? '';
    const dir = path.join(app.database.dataDir, 'uploads');
    const file = path.join(dir, name);
    const twoDaysAgo = new Date(app.clock.now().getTime() - 2 * 86_400_000);
    utimesSync(file, twoDaysAgo, twoDaysAgo);
    const job = jobNamed('orphan_uploads');
    if (!job) throw new Error('no orphan_uploads job');
    const ctx = {
      db: db(),
      dialect,
      clock: app.clock,
      logger: createLogger('silent'),
      dataDir: app.database.dataDir,
      photos: new DiskPhotoStore(dir),
    };
    await runJob(job, ctx);
    expect(existsSync(file)).toBe(true);
    // A moderator decided (what the console does): the name is gone from the row, so the next sweep takes it.
    await db()
      .updateTable('photo_verifications')
      .set({ selfie_name: null })
      .where('id', '=', row?.id ?? 0)
      .execute();
    await runJob(job, ctx);
    expect(existsSync(file)).toBe(false);
  });

  it(`limits selfies to ${attemptsPerDay} a day`, async () => {
    const person = await createPerson(app);
    for (let i = 0; i < attemptsPerDay; i++) {
      const res = await person.browser.postForm('/api/verification', await offeredForm(person, selfie));
      expect(res.status).toBe(200);
      // Decided, so the next one may come (as a moderator's rejection does).
      await db()
        .updateTable('photo_verifications')
        .set({ status: 'rejected', reason: 'moderator' })
        .where('profile_id', '=', person.profileId)
        .execute();
    }
    const refused = await person.browser.postForm('/api/verification', await offeredForm(person, selfie));
    expect(refused.status).toBe(429);
    expect((await json(refused)).code).toBe('too_many_verifications');
    expect(await verifications(person.profileId)).toHaveLength(attemptsPerDay);
    const state = await json<VerificationState>(await person.browser.get('/api/verification'));
    expect(state).toMatchObject({ status: 'rejected', reason: 'moderator' });
  });

  it('checks only a pose the server offered this person, before it expires', async () => {
    const person = await createPerson(app);
    const other = await createPerson(app);
    const offer = await offeredPose(person.browser);
    const anotherPose = poseIds.find((id) => id !== offer.pose_id) ?? 'turn_left';
    const othersOffer = await offeredPose(other.browser, offer.pose_id);
    const refused = [
      // Another pose than the one signed.
      { ...offer, pose_id: anotherPose },
      // Someone else's offer of the same pose.
      othersOffer,
      // A forged or mangled token.
      { ...offer, pose_token: `${offer.pose_token}x` },
      { ...offer, pose_token: 'not-a-token' },
    ];
    for (const fields of refused) {
      const res = await person.browser.postForm(
        '/api/verification',
        selfieForm(selfie, { ...fields, consent: 'true' }),
      );
      expect(res.status).toBe(400);
      expect((await json(res)).code).toBe('pose_not_offered');
    }
    // The real offer, once it expired.
    app.clock.advance(poseTokenSeconds + 1);
    const late = await person.browser.postForm('/api/verification', selfieForm(selfie, { ...offer, consent: 'true' }));
    expect(late.status).toBe(400);
    expect((await json(late)).code).toBe('pose_not_offered');
    expect(await verifications(person.profileId)).toEqual([]);
    // A fresh offer is taken.
    const fresh = await person.browser.postForm('/api/verification', await offeredForm(person, selfie));
    expect(fresh.status).toBe(200);
  });

  it('takes one of several parallel selfies and refuses the others as pending', async () => {
    const person = await createPerson(app);
    const forms = await Promise.all([1, 2, 3, 4].map(() => offeredForm(person, selfie)));
    const answers = await Promise.all(forms.map((form) => person.browser.postForm('/api/verification', form)));
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409]);
    for (const res of answers.filter((r) => r.status === 409))
      expect((await json(res)).code).toBe('verification_pending');
    const rows = await verifications(person.profileId);
    expect(rows).toHaveLength(1);
    // The kept one is on disk for the moderator (the refused ones' files were removed on the way out).
    const dir = path.join(app.database.dataDir, 'uploads');
    expect(existsSync(path.join(dir, rows[0]?.selfie_name ?? 'none'))).toBe(true);
  });

  it('keeps a face descriptor only while consent stands, checked in the insert itself', async () => {
    const person = await createPerson(app, { photos: 1 });
    const photo = await db()
      .selectFrom('photos')
      .select('id')
      .where('profile_id', '=', person.profileId)
      .executeTakeFirstOrThrow();
    const now = app.clock.now().toISOString();
    const faces = () => db().selectFrom('photo_faces').select('photo_id').where('photo_id', '=', photo.id).execute();
    // No consent (never given, or withdrawn while the models worked): nothing is written.
    await insertPhotoFace(db(), person.profileId, photo.id, Buffer.alloc(16, 2), now);
    expect(await faces()).toEqual([]);
    await db().updateTable('profiles').set({ face_consent_at: now }).where('id', '=', person.profileId).execute();
    await insertPhotoFace(db(), person.profileId, photo.id, Buffer.alloc(16, 2), now);
    await insertPhotoFace(db(), person.profileId, photo.id, Buffer.alloc(16, 3), now);
    const [row] = await db().selectFrom('photo_faces').selectAll().where('photo_id', '=', photo.id).execute();
    expect(Buffer.from(row?.descriptor ?? new Uint8Array())).toEqual(Buffer.alloc(16, 2));
  });

  it('withdrawing consent deletes every face descriptor of the person, and only theirs', async () => {
    const person = await createPerson(app, { photos: 2 });
    const other = await createPerson(app, { photos: 1 });
    const photoIds = async (p: Person) =>
      (await db().selectFrom('photos').select('id').where('profile_id', '=', p.profileId).execute()).map((r) => r.id);
    const now = app.clock.now().toISOString();
    for (const id of [...(await photoIds(person)), ...(await photoIds(other))])
      await db()
        .insertInto('photo_faces')
        .values({ photo_id: id, descriptor: Buffer.alloc(16, 1), created_at: now })
        .execute();
    await db()
      .updateTable('profiles')
      .set({ face_consent_at: now, verified: 1 })
      .where('id', '=', person.profileId)
      .execute();
    const res = await person.browser.request('DELETE', '/api/verification/consent', undefined, {
      'X-CSRF-Token': await person.browser.csrfToken(),
    });
    expect(res.status).toBe(200);
    const state = await json<VerificationState>(res);
    expect(state.consent).toBe(false);
    // The badge stays: it was earned; only the biometric data goes.
    expect(state.status).toBe('verified');
    const left = await db().selectFrom('photo_faces').select('photo_id').execute();
    const mine = await photoIds(person);
    expect(left.filter((r) => mine.includes(r.photo_id))).toEqual([]);
    const [otherPhoto] = await photoIds(other);
    expect(left.filter((r) => r.photo_id === otherPhoto)).toHaveLength(1);
  });

  it('a deleted photo takes its descriptor with it', async () => {
    const person = await createPerson(app, { photos: 1 });
    const photo = await db()
      .selectFrom('photos')
      .select('id')
      .where('profile_id', '=', person.profileId)
      .executeTakeFirstOrThrow();
    await db()
      .insertInto('photo_faces')
      .values({ photo_id: photo.id, descriptor: Buffer.alloc(16), created_at: app.clock.now().toISOString() })
      .execute();
    await db().deleteFrom('profiles').where('id', '=', person.profileId).execute();
    expect(await db().selectFrom('photo_faces').select('photo_id').where('photo_id', '=', photo.id).execute()).toEqual(
      [],
    );
  });

  it('shows the badge on cards and profiles, and verifiedOnly shows only verified people, a new badge included', async () => {
    const at: [number, number] = [-41.2865, 174.7762];
    const viewer = await createPerson(app, { gender: 'Male', at });
    const plain = await createPerson(app, { gender: 'Female', at });
    const badge = await createPerson(app, { gender: 'Female', at });
    await db().updateTable('profiles').set({ verified: 1 }).where('id', '=', badge.profileId).execute();
    const card = async (query: string) => {
      const res = await viewer.browser.get(`/api/search?ageMin=18&ageMax=100&gender=Female&maxDistance=5${query}`);
      return res.status === 200 ? await json<SearchResult>(res) : null;
    };
    const first = await card('&verifiedOnly=true');
    expect(first).toMatchObject({ profile_id: badge.profileId, verified: true });
    expect(await card(`&verifiedOnly=true&exclude=${badge.profileId}`)).toBeNull();
    // Off, both come; the unverified card says so.
    const ids = [(await card(''))?.profile_id, (await card(`&exclude=${badge.profileId}`))?.profile_id];
    expect(ids).toContain(plain.profileId);
    const plainCard = await card(`&exclude=${badge.profileId}`);
    expect(plainCard?.verified).toBe(false);
    // Someone verified after the viewer's pool was made shows up in it (the badge stamps the search change).
    await db().updateTable('profiles').set({ verified: 1 }).where('id', '=', plain.profileId).execute();
    expect((await card(`&verifiedOnly=true&exclude=${badge.profileId}`))?.profile_id).toBe(plain.profileId);
    // Matched, each sees the other's profile: with the badge, or without.
    await badge.browser.post('/api/like', { profile_id: viewer.profileId });
    expect((await viewer.browser.post('/api/like', { profile_id: badge.profileId })).status).toBe(200);
    const profile = await json<UsersProfileResponse>(
      await viewer.browser.get(`/api/users_profile?profile_id=${badge.profileId}`),
    );
    expect(profile.users_profile.verified).toBe(true);
    const back = await json<UsersProfileResponse>(
      await badge.browser.get(`/api/users_profile?profile_id=${viewer.profileId}`),
    );
    expect(back.users_profile.verified).toBe(false);
    expect((await json<OwnProfileResponse>(await badge.browser.get('/api/profile'))).verified).toBe(true);
    const bad = await viewer.browser.get('/api/search?verifiedOnly=yes');
    expect(bad.status).toBe(400);
  });

  it('shows a held photo to its owner as under review and to nobody else', async () => {
    const at: [number, number] = [64.1466, -21.9426];
    const viewer = await createPerson(app, { gender: 'Male', at });
    const owner = await createPerson(app, { gender: 'Female', at, photos: 2 });
    const [held, shown] = await db()
      .selectFrom('photos')
      .select(['id', 'file_name'])
      .where('profile_id', '=', owner.profileId)
      .orderBy('position')
      .execute();
    await db()
      .updateTable('photos')
      .set({ moderation: 'held' })
      .where('id', '=', held?.id ?? 0)
      .execute();
    const own = await json<OwnProfileResponse>(await owner.browser.get('/api/profile'));
    expect(own.photos).toEqual([held?.file_name, shown?.file_name]);
    expect(own.under_review).toEqual([held?.file_name]);
    const card = await json<SearchResult>(await viewer.browser.get('/api/search?ageMin=18&ageMax=100&gender=Female'));
    expect(card.profile_id).toBe(owner.profileId);
    expect(card.photo).toBe(shown?.file_name);
    // Matched: the match's answer, the profile, the matches and chat lists show the clear photo only.
    await owner.browser.post('/api/like', { profile_id: viewer.profileId });
    const liked = await viewer.browser.post('/api/like', { profile_id: owner.profileId });
    expect(liked.status).toBe(200);
    const likedText = await liked.text();
    expect(likedText).not.toContain(held?.file_name ?? '?');
    const profile = await json<UsersProfileResponse>(
      await viewer.browser.get(`/api/users_profile?profile_id=${owner.profileId}`),
    );
    expect(profile.users_profile.photos).toEqual([shown?.file_name]);
    expect((await viewer.browser.post('/api/conversations/start', { profile_id: owner.profileId })).status).toBe(200);
    for (const list of ['/api/matches', '/api/chats']) {
      const res = await viewer.browser.get(list);
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text).toContain(String(owner.profileId));
      expect(text).not.toContain(held?.file_name ?? '?');
    }
  });
});
