import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProfileId } from '../../../db/schema.ts';
import type { PoseId, VerificationState } from '../../contract/photoVerification.ts';
import type { OwnProfileResponse } from '../../contract/profiles.ts';
import { createLogger } from '../../logger.ts';
import { signUpVerified } from '../../test/accounts.ts';
import { type Browser, json } from '../../test/browser.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';
import { type ModerationModels, WorkerModels } from '../moderationModels/index.ts';
import { offeredPose } from '../../test/offeredPose.ts';
import { noise, sampleFaces, type SampleFaces, tilted, twoPeople } from '../../test/sampleFaces.ts';

/**
 * The real models (Human and nsfwjs in their worker thread) on faces cut from the screenshots Human ships
 * (sampleFaces.ts). One thread for the whole file: loading takes 4-5 s. Few cases, each about a second.
 */
const models = new WorkerModels(createLogger('silent'));
let faces: SampleFaces;

/**
 * The models' answers are the same for the same bytes whatever the database, and the two databases' passes
 * send the same images (the uploads are re-encoded the same way): the first pass asks the models, the second
 * reuses their answer for bytes already seen (half the file's time was inference). A byte that differs asks
 * the models again.
 */
function rememberingAnswers(real: ModerationModels): ModerationModels {
  const answers = new Map<string, Promise<unknown>>();
  const remembered = <T>(kind: string, image: Buffer, ask: () => Promise<T>): Promise<T> => {
    const key = `${kind}:${createHash('sha256').update(image).digest('hex')}`;
    let answer = answers.get(key) as Promise<T> | undefined;
    if (answer === undefined) {
      // A failure (null, or an error) is not remembered: the next pass asks again.
      answer = ask().then(
        (value) => {
          if (value === null) answers.delete(key);
          return value;
        },
        (error: unknown) => {
          answers.delete(key);
          throw error;
        },
      );
      answers.set(key, answer);
    }
    return answer.then((value) => structuredClone(value));
  };
  return {
    get on() {
      return real.on;
    },
    faces: (image) => remembered('faces', image, () => real.faces(image)),
    nsfw: (image) => remembered('nsfw', image, () => real.nsfw(image)),
    close: () => real.close(),
  };
}
const answering = rememberingAnswers(models);

beforeAll(async () => {
  faces = await sampleFaces();
  expect(await models.ready()).toBe(true);
}, 120_000);
afterAll(async () => {
  await models.close();
});

function photoForm(photos: Buffer[], field: string, fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  for (const [i, photo] of photos.entries())
    form.append(field, new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), `p${i}.jpg`);
  return form;
}

describe.each(testDialects())('selfie verification with the models on %s', (dialect) => {
  let app: TestApp;

  beforeAll(async () => {
    app = await createTestApp(dialect, { moderationModels: answering });
  });
  afterAll(async () => {
    await app.close();
  });

  const db = () => app.database.db;

  /** A person whose profile was made through the API with these photos (screened as every upload is). */
  async function personWith(photos: Buffer[]): Promise<{ browser: Browser; profile: OwnProfileResponse }> {
    const { browser } = await signUpVerified(app);
    const res = await browser.postForm(
      '/api/create_profile',
      photoForm(photos, 'photos', { name: 'Иван', age: '35', gender: 'Male', city: 'Москва', bio: '' }),
    );
    expect(res.status).toBe(201);
    return { browser, profile: (await json<{ profile: OwnProfileResponse }>(res)).profile };
  }

  async function selfie(browser: Browser, photo: Buffer, pose: PoseId): Promise<VerificationState> {
    const res = await browser.postForm(
      '/api/verification',
      photoForm([photo], 'selfie', { ...(await offeredPose(browser, pose)), consent: 'true' }),
    );
    expect(res.status).toBe(200);
    return json<VerificationState>(res);
  }

  const latest = (profileId: ProfileId) =>
    db()
      .selectFrom('photo_verifications')
      .selectAll()
      .where('profile_id', '=', profileId)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
  const badge = async (profileId: ProfileId) =>
    (await db().selectFrom('profiles').select('verified').where('id', '=', profileId).executeTakeFirstOrThrow())
      .verified;
  const descriptorCount = async (profileId: ProfileId) =>
    (
      await db()
        .selectFrom('photo_faces')
        .innerJoin('photos', 'photos.id', 'photo_faces.photo_id')
        .select('photo_faces.photo_id')
        .where('photos.profile_id', '=', profileId)
        .execute()
    ).length;

  it('screens every upload: a portrait gets a low score and stays clear, and no descriptor without consent', async () => {
    const { profile } = await personWith([faces.man, faces.woman1]);
    const rows = await db()
      .selectFrom('photos')
      .select(['moderation', 'screen_score'])
      .where('profile_id', '=', profile.id)
      .execute();
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.moderation).toBe('clear');
      expect(row.screen_score).not.toBeNull();
      expect(row.screen_score ?? 1).toBeLessThan(0.3);
    }
    expect(profile.under_review).toEqual([]);
    expect(await descriptorCount(profile.id)).toBe(0);
  });

  it('verifies the same person tilting their head as asked, keeps no selfie, and shows the badge', async () => {
    const { browser, profile } = await personWith([faces.man]);
    const state = await selfie(browser, await tilted(faces.man, 25), 'tilt_left');
    expect(state).toMatchObject({ status: 'verified', reason: null, consent: true });
    const row = await latest(profile.id);
    expect(row).toMatchObject({ status: 'verified', selfie_name: null, pose_ok: 1, faces: 1, decided_by: 'model' });
    expect(row.similarity ?? 0).toBeGreaterThanOrEqual(0.75);
    expect(await badge(profile.id)).toBe(1);
    // The profile photo's descriptor was computed once, at the check (consent came with it).
    expect(await descriptorCount(profile.id)).toBe(1);
    const own = await json<OwnProfileResponse>(await browser.get('/api/profile'));
    expect(own.verified).toBe(true);
    // A second selfie is refused: already verified.
    const again = await browser.postForm(
      '/api/verification',
      photoForm([faces.man], 'selfie', { ...(await offeredPose(browser)), consent: 'true' }),
    );
    expect(again.status).toBe(409);
  });

  it('never verifies a selfie without a face', async () => {
    const { browser, profile } = await personWith([faces.man]);
    const state = await selfie(browser, await noise(), 'turn_left');
    expect(state).toMatchObject({ status: 'rejected', reason: 'no_face' });
    expect((await latest(profile.id)).faces).toBe(0);
    expect(await badge(profile.id)).toBe(0);
  });

  it('rejects someone else’s face, and a frontal selfie when a turned head was asked', async () => {
    const { browser, profile } = await personWith([faces.man]);
    const stranger = await selfie(browser, await tilted(faces.woman1, 25), 'tilt_left');
    expect(stranger).toMatchObject({ status: 'rejected', reason: 'no_match' });
    expect((await latest(profile.id)).similarity ?? 1).toBeLessThan(0.55);
    const frontal = await selfie(browser, faces.man, 'turn_left');
    expect(frontal).toMatchObject({ status: 'rejected', reason: 'pose_not_seen' });
    expect(await badge(profile.id)).toBe(0);
  });

  it('sends a selfie with two large faces to a moderator and keeps it for them', async () => {
    const { browser, profile } = await personWith([faces.man]);
    const state = await selfie(browser, await twoPeople(faces.man, faces.woman2), 'tilt_right');
    expect(state).toMatchObject({ status: 'pending', reason: 'several_faces' });
    const row = await latest(profile.id);
    expect(row.faces).toBe(2);
    expect(row.selfie_name).toMatch(/^[0-9a-f]{32}\.jpg$/);
    expect(await badge(profile.id)).toBe(0);
  });

  it('keeps the badge for a new main photo of the same person and takes it for someone else’s', async () => {
    const { browser, profile } = await personWith([faces.man]);
    expect((await selfie(browser, await tilted(faces.man, -25), 'tilt_right')).status).toBe('verified');
    const [first] = profile.photos;
    // The same man, re-framed, replaces the main photo: computed at upload (consent), it matches.
    const same = await browser.postForm(
      '/api/edit_profile',
      photoForm([await tilted(faces.man, 4)], 'newPhotos', {
        payload: JSON.stringify({ deletedPhotos: [first], newPhotos: 1 }),
      }),
    );
    expect(same.status).toBe(200);
    expect(await badge(profile.id)).toBe(1);
    const current = (await json<{ profile: OwnProfileResponse }>(same)).profile.photos;
    // Someone else as the main photo: the badge goes.
    const other = await browser.postForm(
      '/api/edit_profile',
      photoForm([faces.woman3], 'newPhotos', {
        payload: JSON.stringify({ deletedPhotos: current, newPhotos: 1 }),
      }),
    );
    expect(other.status).toBe(200);
    expect(await badge(profile.id)).toBe(0);
    expect((await json<VerificationState>(await browser.get('/api/verification'))).status).toBe('none');
  });

  it('never verifies by a face that is not the main photo’s (a stranger’s photos first, one’s own later)', async () => {
    const { browser, profile } = await personWith([faces.woman1, faces.man]);
    const state = await selfie(browser, await tilted(faces.man, 25), 'tilt_left');
    expect(state).toMatchObject({ status: 'rejected', reason: 'no_match' });
    expect((await latest(profile.id)).similarity ?? 1).toBeLessThan(0.55);
    expect(await badge(profile.id)).toBe(0);
  });

  it('takes the badge when a stranger’s photo, added later, is moved to the main place', async () => {
    const { browser, profile } = await personWith([faces.man]);
    expect((await selfie(browser, await tilted(faces.man, -25), 'tilt_right')).status).toBe('verified');
    // A stranger's photo added second: the main photo is unchanged, the badge stays.
    const added = await browser.postForm(
      '/api/edit_profile',
      photoForm([faces.woman3], 'newPhotos', { payload: JSON.stringify({ deletedPhotos: [], newPhotos: 1 }) }),
    );
    expect(added.status).toBe(200);
    expect(await badge(profile.id)).toBe(1);
    const [mine, strangers] = (await json<{ profile: OwnProfileResponse }>(added)).profile.photos;
    // Moved first: compared with the previous main photo (the man), never with itself, so the badge goes.
    const moved = await browser.postForm(
      '/api/edit_profile',
      photoForm([], 'newPhotos', { payload: JSON.stringify({ deletedPhotos: [], order: [strangers, mine] }) }),
    );
    expect(moved.status).toBe(200);
    expect(await badge(profile.id)).toBe(0);
  });

  it('withdrawing consent deletes the descriptors the check made; the models’ thread holds no more tensors', async () => {
    const before = await models.tensors();
    const { browser, profile } = await personWith([faces.man, faces.woman4]);
    await selfie(browser, await tilted(faces.man, 25), 'tilt_left');
    // Only the main photo is compared with, so only its descriptor was computed.
    expect(await descriptorCount(profile.id)).toBe(1);
    const res = await browser.request('DELETE', '/api/verification/consent', undefined, {
      'X-CSRF-Token': await browser.csrfToken(),
    });
    expect(res.status).toBe(200);
    expect(await descriptorCount(profile.id)).toBe(0);
    expect(await models.tensors()).toBe(before);
  });
});
