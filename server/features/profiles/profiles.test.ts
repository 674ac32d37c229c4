import { randomBytes } from 'node:crypto';
import { watch } from 'node:fs';
import { readdir, rm, writeFile } from 'node:fs/promises';
import { request, type IncomingMessage } from 'node:http';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OwnProfileResponse } from '../../contract/profiles.ts';
import { signUpVerified } from '../../test/accounts.ts';
import { Browser, json } from '../../test/browser.ts';
import {
  decompressionBombPng,
  jpegWithGps,
  oversizedFile,
  png,
  sidewaysJpeg,
  textRenamedJpg,
  webp,
} from '../../test/images.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';

type Fields = Record<string, string>;
const validFields: Fields = {
  name: 'Анна',
  age: '27',
  gender: 'Female',
  city: 'Москва',
  bio: 'Люблю горы',
  latitude: '55.75123',
  longitude: '37.61876',
};

function form(fields: Fields, files: { name: string; data: Buffer; type?: string }[], fileField = 'photos'): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.append(key, value);
  for (const file of files)
    data.append(fileField, new Blob([new Uint8Array(file.data)], { type: file.type ?? 'image/jpeg' }), file.name);
  return data;
}

describe.each(testDialects())('profiles and photos on %s', (dialect) => {
  let app: TestApp;
  let photo: Buffer;
  beforeAll(async () => {
    app = await createTestApp(dialect);
    photo = await jpegWithGps();
  });
  afterAll(async () => {
    await app.close();
  });

  const uploadsDir = () => path.join(app.database.dataDir, 'uploads');
  const filesOnDisk = async () => (await readdir(uploadsDir()).catch(() => [] as string[])).sort();
  const countRows = async (table: 'profiles' | 'photos') =>
    Number(
      (
        await app.database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  async function createProfile(browser: Browser, count = 1, fields: Fields = validFields) {
    const files = Array.from({ length: count }, (_, i) => ({ name: `p${i}.jpg`, data: photo }));
    const res = await browser.postForm('/api/create_profile', form(fields, files));
    expect(res.status).toBe(201);
    return (await json<{ profile: OwnProfileResponse }>(res)).profile;
  }

  it('creates a profile with one photo: fields, opposite preferred gender, snapped coordinates, no premium', async () => {
    const { browser, userId } = await signUpVerified(app);
    const profile = await createProfile(browser, 1);
    expect(profile).toMatchObject({
      user_id: userId,
      name: 'Анна',
      age: 27,
      gender: 'Female',
      preferred_gender: 'Male',
      city: 'Москва',
      bio: 'Люблю горы',
      isActive: false,
      end_date: null,
    });
    expect(profile.photos).toHaveLength(1);
    expect(profile.photos[0]).toMatch(/^[0-9a-f]{32}\.jpg$/);
    // Snapped to the ~1 km grid: never the exact position sent.
    expect(profile.latitude).not.toBe(55.75123);
    expect(Math.abs((profile.latitude ?? 0) - 55.75123)).toBeLessThan(0.01);
    expect(Math.abs((profile.longitude ?? 0) - 37.61876)).toBeLessThan(0.02);
    const stored = await app.database.db
      .selectFrom('profiles')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(stored.latitude).toBe(profile.latitude);

    expect(await json(await browser.get('/api/profile'))).toEqual(profile);
    expect(await json(await browser.get('/api/edit_profile'))).toEqual(profile);
    expect(await json(await browser.get('/api/current_user'))).toMatchObject({
      // The reader's own gender too: the app addresses them by it (i18next's _male/_female contexts).
      userprofile: { id: profile.id, name: 'Анна', age: 27, gender: 'Female', photo: profile.photos[0] },
    });
  });

  it('creates a profile with six photos of any accepted format, each re-encoded to a 640x852 JPEG and a thumbnail', async () => {
    const { browser } = await signUpVerified(app);
    const files = [
      { name: 'a.jpg', data: photo },
      { name: 'b.png', data: await png(), type: 'image/png' },
      { name: 'c.webp', data: await webp(), type: 'image/webp' },
      { name: 'd.jpg', data: photo },
      // The declared type lies; the bytes decide.
      { name: 'e.gif', data: await png(2000, 500), type: 'image/gif' },
      { name: 'f.jpg', data: await sidewaysJpeg() },
    ];
    const res = await browser.postForm('/api/create_profile', form({ ...validFields, gender: 'Male' }, files));
    expect(res.status).toBe(201);
    const { profile } = await json<{ profile: OwnProfileResponse }>(res);
    expect(profile.preferred_gender).toBe('Female');
    expect(profile.photos).toHaveLength(6);
    for (const name of profile.photos) {
      const served = await fetch(`${app.url}/api/uploads/${name}`);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/jpeg');
      expect(served.headers.get('cache-control')).toContain('immutable');
      const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 640, 852]);
      const thumb = await fetch(`${app.url}/api/uploads/${name.replace('.jpg', '.thumb.jpg')}`);
      const thumbMeta = await sharp(Buffer.from(await thumb.arrayBuffer())).metadata();
      expect([thumbMeta.width, thumbMeta.height]).toEqual([240, 320]);
    }
    // The sideways phone photo comes out upright: red (the stored left half) on top, blue at the bottom.
    const upright = await sharp(
      Buffer.from(await (await fetch(`${app.url}/api/uploads/${profile.photos[5] ?? ''}`)).arrayBuffer()),
    )
      .raw()
      .toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) =>
      Array.from(upright.data.subarray((y * upright.info.width + x) * 3, (y * upright.info.width + x) * 3 + 3));
    const [topR = 0, , topB = 0] = pixel(320, 40);
    const [bottomR = 0, , bottomB = 0] = pixel(320, 810);
    expect(topR).toBeGreaterThan(200);
    expect(topB).toBeLessThan(60);
    expect(bottomB).toBeGreaterThan(200);
    expect(bottomR).toBeLessThan(60);
  });

  it('strips every bit of metadata: a phone JPEG with EXIF GPS comes back with no EXIF at all', async () => {
    expect((await sharp(photo).metadata()).exif).toBeDefined();
    const { browser } = await signUpVerified(app);
    const profile = await createProfile(browser, 1);
    const served = Buffer.from(await (await fetch(`${app.url}/api/uploads/${profile.photos[0] ?? ''}`)).arrayBuffer());
    const meta = await sharp(served).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    expect(served.includes(Buffer.from('Exif'))).toBe(false);
    expect(served.includes(Buffer.from('Secret Person'))).toBe(false);
  });

  describe('refuses bad creations with the spec message and writes nothing', () => {
    let browser: Browser;
    let bomb: Buffer;
    beforeAll(async () => {
      ({ browser } = await signUpVerified(app));
      bomb = await decompressionBombPng();
    });

    const cases: [string, () => FormData, number, string][] = [
      [
        'a 7th photo',
        () =>
          form(
            validFields,
            Array.from({ length: 7 }, (_, i) => ({ name: `${i}.jpg`, data: photo })),
          ),
        400,
        'You can add at most 6 photos.',
      ],
      ['no photo', () => form(validFields, []), 400, 'Please add at least one photo.'],
      [
        'age 17',
        () => form({ ...validFields, age: '17' }, [{ name: 'a.jpg', data: photo }]),
        400,
        'Age must be at least 18 years.',
      ],
      [
        'age 101',
        () => form({ ...validFields, age: '101' }, [{ name: 'a.jpg', data: photo }]),
        400,
        'Age must be at most 100 years.',
      ],
      [
        'an empty name',
        () => form({ ...validFields, name: '  ' }, [{ name: 'a.jpg', data: photo }]),
        400,
        'Please fill in all required fields.',
      ],
      [
        'no age',
        () => form({ ...validFields, age: '' }, [{ name: 'a.jpg', data: photo }]),
        400,
        'Please fill in all required fields.',
      ],
      [
        'a wrong gender',
        () => form({ ...validFields, gender: 'Other' }, [{ name: 'a.jpg', data: photo }]),
        400,
        'Gender must be Male or Female.',
      ],
      [
        'a 41-character name',
        () => form({ ...validFields, name: 'x'.repeat(41) }, [{ name: 'a.jpg', data: photo }]),
        400,
        'Name must be at most 40 characters.',
      ],
      [
        'a 501-character bio',
        () => form({ ...validFields, bio: 'x'.repeat(501) }, [{ name: 'a.jpg', data: photo }]),
        400,
        'Bio must be at most 500 characters.',
      ],
      [
        'a premium field',
        () => form({ ...validFields, premium_until: '2100-01-01' }, [{ name: 'a.jpg', data: photo }]),
        400,
        'Unknown field(s): premium_until',
      ],
      [
        'an owner field',
        () => form({ ...validFields, user_id: '1' }, [{ name: 'a.jpg', data: photo }]),
        400,
        'Unknown field(s): user_id',
      ],
      [
        'a text file renamed .jpg',
        () => form(validFields, [{ name: 'me.jpg', data: textRenamedJpg() }]),
        400,
        'Only JPEG, PNG or WebP photos are accepted.',
      ],
      [
        'a good photo followed by a text file',
        () =>
          form(validFields, [
            { name: 'a.jpg', data: photo },
            { name: 'b.jpg', data: textRenamedJpg() },
          ]),
        400,
        'Only JPEG, PNG or WebP photos are accepted.',
      ],
      [
        'a 50-megapixel PNG bomb',
        () => form(validFields, [{ name: 'bomb.png', data: bomb, type: 'image/png' }]),
        413,
        'The photo is too large: at most 40 megapixels.',
      ],
      [
        'a 16 MB file',
        () => form(validFields, [{ name: 'big.jpg', data: oversizedFile() }]),
        413,
        'Each photo must be at most 15 MB.',
      ],
    ];

    it.each(cases)('%s', async (_name, makeForm, status, message) => {
      const [profiles, photos, files] = [await countRows('profiles'), await countRows('photos'), await filesOnDisk()];
      const res = await browser.postForm('/api/create_profile', makeForm());
      expect(res.status).toBe(status);
      expect((await json(res)).error).toBe(message);
      expect(await countRows('profiles')).toBe(profiles);
      expect(await countRows('photos')).toBe(photos);
      expect(await filesOnDisk()).toEqual(files);
    });

    it('the bomb is a real one: small on disk, 50 megapixels decoded', async () => {
      expect(bomb.length).toBeLessThan(1024 * 1024);
      const meta = await sharp(bomb).metadata();
      expect(meta.width * meta.height).toBe(50_000_000);
    });
  });

  it('requires a signed-in, verified user, and one profile per user', async () => {
    const anonymous = new Browser(app.url);
    expect(
      (await anonymous.postForm('/api/create_profile', form(validFields, [{ name: 'a.jpg', data: photo }]))).status,
    ).toBe(401);
    expect((await anonymous.get('/api/profile')).status).toBe(401);

    const unverified = new Browser(app.url);
    await unverified.post('/api/register', { email: `unverified-${Date.now()}@example.com`, password: 'secret123!' });
    const refused = await unverified.postForm(
      '/api/create_profile',
      form(validFields, [{ name: 'a.jpg', data: photo }]),
    );
    expect(refused.status).toBe(403);
    expect(await json(refused)).toMatchObject({ code: 'not_verified' });

    const { browser } = await signUpVerified(app);
    const none = await browser.get('/api/profile');
    expect(none.status).toBe(404);
    expect(await json(none)).toEqual({ error: 'Profile not found', code: 'profile_not_found' });
    await createProfile(browser);
    const files = await filesOnDisk();
    const second = await browser.postForm('/api/create_profile', form(validFields, [{ name: 'a.jpg', data: photo }]));
    expect(second.status).toBe(409);
    expect(await filesOnDisk()).toEqual(files);
  });

  it('edits fields and photos in one request: deletes exactly the removed files and adds the new one', async () => {
    const { browser } = await signUpVerified(app);
    const before = await createProfile(browser, 4);
    const [first = '', second = '', third = '', fourth = ''] = before.photos;
    const blurOf = new Map(
      (
        await app.database.db
          .selectFrom('photos')
          .select(['file_name', 'blur_name'])
          .where('profile_id', '=', before.id)
          .execute()
      ).map((r) => [r.file_name, r.blur_name ?? '']),
    );
    const filesOf = (name: string) => [name, name.replace('.jpg', '.thumb.jpg'), blurOf.get(name) ?? 'missing'];
    const filesBefore = await filesOnDisk();

    const edit = form(
      {
        name: 'Аня',
        age: '28',
        gender: 'Other',
        city: 'Казань',
        bio: '',
        payload: JSON.stringify({ deletedPhotos: [first, third], newPhotos: 1, order: [fourth, second] }),
      },
      [{ name: 'new.png', data: await png(), type: 'image/png' }],
      'newPhotos',
    );
    const res = await browser.postForm('/api/edit_profile', edit);
    expect(res.status).toBe(200);
    const body = await json<{ message: string; profile: OwnProfileResponse }>(res);
    expect(body.message).toBe('Profile updated successfully');
    expect(body.profile).toMatchObject({ name: 'Аня', age: 28, gender: 'Other', city: 'Казань', bio: '' });
    expect(body.profile.photos.slice(0, 2)).toEqual([fourth, second]);
    expect(body.profile.photos).toHaveLength(3);
    const added = body.profile.photos[2] ?? '';

    const filesAfter = await filesOnDisk();
    const removed = filesBefore.filter((f) => !filesAfter.includes(f));
    expect(removed.sort()).toEqual([...filesOf(first), ...filesOf(third)].sort());
    const addedRow = await app.database.db
      .selectFrom('photos')
      .select('blur_name')
      .where('file_name', '=', added)
      .executeTakeFirstOrThrow();
    expect(filesAfter.filter((f) => !filesBefore.includes(f)).sort()).toEqual(
      [added, added.replace('.jpg', '.thumb.jpg'), addedRow.blur_name].sort(),
    );

    // Plain JSON edits work too, and bad ones change nothing.
    expect((await browser.post('/api/edit_profile', { bio: 'Новое' })).status).toBe(200);
    for (const bad of [
      { age: 17 },
      { name: '' },
      { city: '' },
      { gender: 'Robot' },
      { deletedPhotos: [second, fourth, added] },
      { isActive: true },
    ]) {
      const refused = await browser.post('/api/edit_profile', bad);
      expect(refused.status).toBe(400);
    }
    const now = await json<OwnProfileResponse>(await browser.get('/api/profile'));
    expect(now).toMatchObject({ name: 'Аня', age: 28, bio: 'Новое', photos: body.profile.photos });
    expect(await filesOnDisk()).toEqual(filesAfter);
  });

  it('answers create and edit with the profile and the user exactly as GET /api/profile and GET /api/current_user give them next', async () => {
    const { browser } = await signUpVerified(app);
    const sameAsTheGets = async (res: Response, message: string) => {
      expect(res.ok).toBe(true);
      const body = await json<{ profile: OwnProfileResponse; current_user: unknown }>(res);
      expect(body).toEqual({
        message,
        profile: await json(await browser.get('/api/profile')),
        current_user: await json(await browser.get('/api/current_user')),
      });
      return body;
    };
    const created = await sameAsTheGets(
      await browser.postForm('/api/create_profile', form(validFields, [{ name: 'a.jpg', data: photo }])),
      'Profile created successfully',
    );
    expect(created.current_user).toMatchObject({
      userprofile: { id: created.profile.id, name: 'Анна', photo: created.profile.photos[0] },
    });
    // A new name and a new first photo: the summary the top bar shows changes with them.
    const edits = { name: 'Аня', payload: JSON.stringify({ deletedPhotos: created.profile.photos, newPhotos: 1 }) };
    const edited = await sameAsTheGets(
      await browser.postForm('/api/edit_profile', form(edits, [{ name: 'b.jpg', data: photo }], 'newPhotos')),
      'Profile updated successfully',
    );
    expect(edited.profile.photos).not.toEqual(created.profile.photos);
    expect(edited.current_user).toMatchObject({ userprofile: { name: 'Аня', photo: edited.profile.photos[0] } });
    const viaJson = await sameAsTheGets(
      await browser.post('/api/edit_profile', { age: 30, gender: 'Other' }),
      'Profile updated successfully',
    );
    expect(viaJson.current_user).toMatchObject({ userprofile: { age: 30, gender: 'Other' } });
  });

  it('never lets another user edit or delete my profile or photos', async () => {
    const { browser: owner } = await signUpVerified(app);
    const mine = await createProfile(owner, 2);
    const { browser: intruder } = await signUpVerified(app);
    await createProfile(intruder, 1);
    const files = await filesOnDisk();

    const res = await intruder.post('/api/edit_profile', { deletedPhotos: [mine.photos[0]] });
    expect(res.status).toBe(400);
    expect(await json(res)).toMatchObject({ code: 'unknown_photo' });
    const viaForm = await intruder.postForm(
      '/api/edit_profile',
      form({ payload: JSON.stringify({ deletedPhotos: [mine.photos[1]] }), user_id: String(mine.user_id) }, []),
    );
    expect(viaForm.status).toBe(400);
    expect(await filesOnDisk()).toEqual(files);
    expect(await json(await owner.get('/api/profile'))).toEqual(mine);

    // Deleting acts on the caller's own profile only.
    expect((await intruder.post('/api/delete_profile')).status).toBe(200);
    expect(await json(await owner.get('/api/profile'))).toEqual(mine);
    for (const name of mine.photos) expect(await filesOnDisk()).toContain(name);
  });

  it('deletes the profile with every row and file that belonged to it', async () => {
    const { browser, userId } = await signUpVerified(app);
    const profile = await createProfile(browser, 3);
    const files0 = await filesOnDisk();
    const blurNames = (
      await app.database.db.selectFrom('photos').select('blur_name').where('profile_id', '=', profile.id).execute()
    ).map((r) => r.blur_name);
    expect(blurNames.every((b) => b !== null && files0.includes(b))).toBe(true);
    const res = await browser.post('/api/delete_profile');
    expect(res.status).toBe(200);
    expect((await browser.get('/api/profile')).status).toBe(404);
    const photoRows = await app.database.db
      .selectFrom('photos')
      .select('id')
      .where('profile_id', '=', profile.id)
      .execute();
    expect(photoRows).toHaveLength(0);
    const files = await filesOnDisk();
    for (const name of profile.photos) {
      expect(files).not.toContain(name);
      expect(files).not.toContain(name.replace('.jpg', '.thumb.jpg'));
    }
    for (const blur of blurNames) expect(files).not.toContain(blur);
    expect(await json(await browser.get('/api/current_user'))).toMatchObject({
      authorized: true,
      userprofile: null,
      user_id: userId,
    });
    expect((await browser.post('/api/delete_profile')).status).toBe(404);
    // The account stays and can build a new profile.
    await createProfile(browser, 1);
  });

  describe('uploads are read in memory: nothing but the stored photos reaches the disk', () => {
    let browser: Browser;
    beforeAll(async () => {
      ({ browser } = await signUpVerified(app));
    });
    const photos = (count: number) => Array.from({ length: count }, (_, i) => ({ name: `${i}.jpg`, data: photo }));

    /**
     * Every path created or changed under the data folder while `work` runs, except the stored photos and the
     * database's own files: a temporary file shows here even when it is removed before the request ends.
     */
    async function writtenDuring(work: () => Promise<void>): Promise<string[]> {
      const seen = new Set<string>();
      const watcher = watch(app.database.dataDir, { recursive: true }, (_event, name) => {
        if (name) seen.add(name);
      });
      try {
        await work();
        // Written last: once its event is in, the events of everything written before it are too.
        const marker = `marker-${randomBytes(6).toString('hex')}`;
        await writeFile(path.join(app.database.dataDir, marker), '');
        await expect.poll(() => seen.has(marker)).toBe(true);
        await rm(path.join(app.database.dataDir, marker));
      } finally {
        watcher.close();
      }
      return [...seen].filter((name) => !/^(marker-|uploads(\/|$)|iskra\.sqlite)/.test(name));
    }

    /** The number of create_profile requests the server has finished (logged), to wait for one cut short. */
    const createRequestsLogged = () =>
      app.logs.filter((line) => {
        const entry = JSON.parse(line) as { msg?: string; path?: string };
        return entry.msg === 'request' && entry.path === '/api/create_profile';
      }).length;

    const cases: [string, () => FormData, number, string][] = [
      [
        'too large',
        () =>
          form(validFields, [
            { name: 'a.jpg', data: photo },
            { name: 'big.jpg', data: oversizedFile() },
          ]),
        413,
        'photo_too_large',
      ],
      [
        'not an image',
        () =>
          form(validFields, [
            { name: 'a.jpg', data: photo },
            { name: 'b.jpg', data: textRenamedJpg() },
          ]),
        400,
        'invalid_image',
      ],
      ['one photo too many', () => form(validFields, photos(7)), 400, 'too_many_photos'],
      ['far too many photos', () => form(validFields, photos(9)), 400, 'too_many_photos'],
      [
        'a file under an unknown field',
        () => form(validFields, [{ name: 'a.jpg', data: photo }], 'avatar'),
        400,
        'invalid_input',
      ],
    ];

    it.each(cases)('refused: %s', async (_name, makeForm, status, code) => {
      const written = await writtenDuring(async () => {
        for (let i = 0; i < 3; i++) {
          const res = await browser.postForm('/api/create_profile', makeForm());
          expect(res.status).toBe(status);
          expect(await json(res)).toMatchObject({ code });
        }
      });
      expect(written).toEqual([]);
    });

    it('accepted: a new profile and a photo edit write only their photos', async () => {
      const { browser: owner } = await signUpVerified(app);
      const written = await writtenDuring(async () => {
        const created = await createProfile(owner, 2);
        const edited = await owner.postForm(
          '/api/edit_profile',
          form(
            { payload: JSON.stringify({ deletedPhotos: [created.photos[0]], newPhotos: 1 }) },
            [{ name: 'n.jpg', data: photo }],
            'newPhotos',
          ),
        );
        expect(edited.status).toBe(200);
      });
      expect(written).toEqual([]);
      expect((await filesOnDisk()).length).toBeGreaterThan(0);
    });

    it('an upload the client aborts half-way', async () => {
      const boundary = 'iskra-aborted-upload';
      const cookies = ['iskra_session', 'iskra_csrf'].map((name) => `${name}=${browser.cookie(name) ?? ''}`).join('; ');
      const csrf = await browser.csrfToken();
      const before = createRequestsLogged();
      const written = await writtenDuring(async () => {
        const upload = request(`${app.url}/api/create_profile`, {
          method: 'POST',
          headers: {
            'Content-Type': `multipart/form-data; boundary=${boundary}`,
            'Content-Length': String(8 * 1024 * 1024),
            'X-CSRF-Token': csrf,
            Cookie: cookies,
          },
        });
        upload.on('error', () => undefined); // the connection is cut on purpose
        upload.write(
          `--${boundary}\r\nContent-Disposition: form-data; name="photos"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
        );
        upload.write(photo.subarray(0, Math.min(photo.length, 64 * 1024)), () => upload.destroy());
        // The server reads what was sent before it sees the connection end, and then answers the request.
        await expect.poll(createRequestsLogged, { timeout: 10_000 }).toBe(before + 1);
      });
      expect(written).toEqual([]);
    });

    it('a file over 15 MB is refused while it still arrives, not once it ended', async () => {
      const boundary = 'iskra-endless-upload';
      const cookies = ['iskra_session', 'iskra_csrf'].map((name) => `${name}=${browser.cookie(name) ?? ''}`).join('; ');
      const upload = request(`${app.url}/api/create_profile`, {
        method: 'POST',
        // Announced as far more than any limit (formidable's own file limit is checked only when a file ends).
        headers: {
          'Content-Type': `multipart/form-data; boundary=${boundary}`,
          'Content-Length': String(200 * 1024 * 1024),
          'X-CSRF-Token': await browser.csrfToken(),
          Cookie: cookies,
        },
      });
      upload.on('error', () => undefined); // cut below, with most of the announced body never sent
      const answered = new Promise<IncomingMessage>((resolve) => upload.once('response', resolve));
      upload.write(
        `--${boundary}\r\nContent-Disposition: form-data; name="photos"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
      );
      upload.write(oversizedFile(15 * 1024 * 1024 + 64 * 1024));
      try {
        const res = await answered;
        const body = await new Promise<string>((resolve) => {
          let text = '';
          res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve(text));
        });
        expect(res.statusCode).toBe(413);
        expect(JSON.parse(body)).toEqual({ error: 'Each photo must be at most 15 MB.', code: 'photo_too_large' });
      } finally {
        upload.destroy();
      }
    });
  });

  it('serves the placeholder for unknown names and never reads outside the uploads folder', async () => {
    const placeholder = Buffer.from(await (await fetch(`${app.url}/api/uploads/${'0'.repeat(32)}.jpg`)).arrayBuffer());
    expect((await sharp(placeholder).metadata()).format).toBe('jpeg');
    for (const trick of [
      '..%2F..%2Fpackage.json',
      '..%2Fiskra.sqlite',
      '%2Fetc%2Fpasswd',
      'session-secret',
      '..%5C..%5Cpackage.json',
    ]) {
      const res = await fetch(`${app.url}/api/uploads/${trick}`);
      if (res.status === 200) {
        expect(Buffer.from(await res.arrayBuffer()).equals(placeholder)).toBe(true);
      } else {
        expect(res.status).toBe(404);
      }
    }
  });
});

describe.each(testDialects())('uploads held in memory on %s', (dialect) => {
  // A budget of 1 MB for every upload in memory together, so a few hundred kilobytes fill it.
  const budgetBytes = 1024 * 1024;
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(dialect, { uploadMemoryBytes: budgetBytes });
  });
  afterAll(async () => {
    await app.close();
  });

  it('refuses the upload that would pass the budget shared by all, and gives the bytes back when uploads end', async () => {
    const { browser } = await signUpVerified(app);
    const boundary = 'iskra-held-upload';
    const cookies = ['iskra_session', 'iskra_csrf'].map((name) => `${name}=${browser.cookie(name) ?? ''}`).join('; ');
    const csrf = await browser.csrfToken();
    // Sends 600 KB of a photo and then stalls, as a slow (or hostile) client would: its bytes stay held.
    const stalledUpload = () => {
      const upload = request(`${app.url}/api/create_profile`, {
        method: 'POST',
        headers: {
          'Content-Type': `multipart/form-data; boundary=${boundary}`,
          'Content-Length': String(8 * 1024 * 1024),
          'X-CSRF-Token': csrf,
          Cookie: cookies,
        },
      });
      upload.on('error', () => undefined); // cut below on purpose
      const answer = new Promise<{ status: number | undefined; body: string }>((resolve) =>
        upload.once('response', (res) => {
          let body = '';
          res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode, body }));
        }),
      );
      upload.write(
        `--${boundary}\r\nContent-Disposition: form-data; name="photos"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
      );
      upload.write(oversizedFile(600 * 1024));
      return { upload, answer };
    };
    const uploads = [stalledUpload(), stalledUpload()];
    try {
      // Together they pass the 1 MB budget: whichever crosses it is answered at once; the other stays held.
      const refused = await Promise.race(uploads.map((u) => u.answer));
      expect(refused.status).toBe(503);
      expect(JSON.parse(refused.body)).toEqual({
        error: 'The server is busy with other uploads. Please try again in a moment.',
        code: 'uploads_busy',
      });
    } finally {
      for (const { upload } of uploads) upload.destroy();
    }
    // Once both connections ended their bytes are given back: an upload of 400 KB fits again.
    const another = () =>
      browser.postForm('/api/create_profile', form(validFields, [{ name: 'b.jpg', data: oversizedFile(400 * 1024) }]));
    await expect.poll(async () => (await another()).status, { timeout: 15_000 }).toBe(400);
    // An answered upload gives its bytes back too: one after another, each fits (400 KB each, 1 MB in all).
    for (let i = 0; i < 4; i += 1) expect((await another()).status).toBe(400);
  });
});
