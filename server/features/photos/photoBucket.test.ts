import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OwnProfileResponse } from '../../contract/profiles.ts';
import { createLogger } from '../../logger.ts';
import { signUpVerified, testPassword } from '../../test/accounts.ts';
import { Browser, json } from '../../test/browser.ts';
import { jpegWithGps } from '../../test/images.ts';
import { createPerson } from '../../test/people.ts';
import { S3StandIn } from '../../test/s3StandIn.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';
import { type JobContext, jobNamed, runJob } from '../jobs/index.ts';
import type { PhotoBucketSettings } from './s3PhotoStore.ts';
import { S3PhotoStore } from './s3PhotoStore.ts';

const placeholder = readFileSync(path.join(import.meta.dirname, '../../assets/default.jpg'));
const day = 24 * 3600 * 1000;

/** Every file under a folder, at any depth. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

function photoForm(photo: Buffer, count: number, field = 'photos', fields: Record<string, string> = {}): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.append(key, value);
  for (let i = 0; i < count; i++)
    data.append(field, new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), `p${i}.jpg`);
  return data;
}

const profileFields = { name: 'Вера', age: '29', gender: 'Female', city: 'Москва', bio: '' };

describe.each(testDialects())('photos in an S3 bucket on %s', (dialect) => {
  const s3 = new S3StandIn();
  let bucket: PhotoBucketSettings;
  let app: TestApp;
  let photo: Buffer;

  beforeAll(async () => {
    await s3.start();
    bucket = await s3.bucket();
    app = await createTestApp(dialect, { photoBucket: bucket });
    photo = await jpegWithGps(600, 800);
  });
  afterAll(async () => {
    await app.close();
    await s3.stop();
  });

  async function createProfile(browser: Browser, count: number): Promise<OwnProfileResponse> {
    const res = await browser.postForm('/api/create_profile', photoForm(photo, count, 'photos', profileFields));
    expect(res.status).toBe(201);
    return (await json<{ profile: OwnProfileResponse }>(res)).profile;
  }

  /** Each photo's three stored names: the photo, its thumbnail and its blurred copy (read from its row). */
  async function storedNames(profileId: OwnProfileResponse['id']): Promise<string[]> {
    const rows = await app.database.db
      .selectFrom('photos')
      .select(['file_name', 'blur_name'])
      .where('profile_id', '=', profileId)
      .execute();
    return rows.flatMap((r) => [r.file_name, r.file_name.replace(/\.jpg$/, '.thumb.jpg'), r.blur_name ?? '']);
  }

  it('writes the photo, its thumbnail and its blurred copy to the bucket, nothing to disk, and serves each byte for byte', async () => {
    const { browser } = await signUpVerified(app);
    const profile = await createProfile(browser, 1);
    const names = await storedNames(profile.id);
    expect(names).toHaveLength(3);
    const keys = await s3.keys(bucket.bucket);
    for (const name of names) expect(keys).toContain(name);
    // Not a single image under the data folder (the SQLite file and the session secret may be there).
    expect(filesUnder(app.database.dataDir).filter((file) => /\.(jpe?g|png|webp)$/.test(file))).toEqual([]);

    for (const name of names) {
      const res = await fetch(`${app.url}/api/uploads/${name}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/jpeg');
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      const served = Buffer.from(await res.arrayBuffer());
      const stored = await s3.object(bucket.bucket, name);
      expect(stored?.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
      expect(served.equals(stored ?? Buffer.alloc(0))).toBe(true);
      expect(served.equals(placeholder)).toBe(false);
    }
  });

  it('removes a replaced photo’s objects at once, and every object of a deleted profile', async () => {
    const { browser } = await signUpVerified(app);
    const profile = await createProfile(browser, 2);
    const [first, second] = profile.photos;
    const before = await storedNames(profile.id);
    const edit = photoForm(photo, 1, 'newPhotos', {
      payload: JSON.stringify({ deletedPhotos: [first], newPhotos: 1 }),
    });
    const res = await browser.postForm('/api/edit_profile', edit);
    expect(res.status).toBe(200);
    const after = await storedNames(profile.id);
    const replaced = before.slice(0, 3);
    expect(after.slice(0, 3)).toEqual(before.slice(3));
    let keys = await s3.keys(bucket.bucket);
    for (const name of replaced) expect(keys).not.toContain(name);
    for (const name of after) expect(keys).toContain(name);
    expect(second).toBeDefined();

    expect((await browser.post('/api/delete_profile')).status).toBe(200);
    keys = await s3.keys(bucket.bucket);
    for (const name of after) expect(keys).not.toContain(name);
    // Its old links get the placeholder now, briefly cached.
    const gone = await fetch(`${app.url}/api/uploads/${after[0] ?? ''}`);
    expect(gone.headers.get('cache-control')).toBe('public, max-age=300');
    expect(Buffer.from(await gone.arrayBuffer()).equals(placeholder)).toBe(true);
  });

  it('removes every object of a deleted account', async () => {
    const { browser } = await signUpVerified(app);
    const profile = await createProfile(browser, 2);
    const names = await storedNames(profile.id);
    for (const name of names) expect(await s3.keys(bucket.bucket)).toContain(name);
    expect((await browser.post('/api/delete_account', { password: testPassword })).status).toBe(200);
    const keys = await s3.keys(bucket.bucket);
    for (const name of names) expect(keys).not.toContain(name);
  });

  it('answers the placeholder for a name that is not stored or not ours, never another object', async () => {
    await s3.client.send(new PutObjectCommand({ Bucket: bucket.bucket, Key: 'notes.txt', Body: 'not a photo' }));
    const unknown = await fetch(`${app.url}/api/uploads/${'0'.repeat(32)}.jpg`);
    expect(unknown.status).toBe(200);
    expect(unknown.headers.get('cache-control')).toBe('public, max-age=300');
    expect(Buffer.from(await unknown.arrayBuffer()).equals(placeholder)).toBe(true);
    for (const trick of ['notes.txt', '..%2Fnotes.txt', `${'a'.repeat(32)}.png`, '%2Fetc%2Fpasswd', 'session-secret']) {
      const res = await fetch(`${app.url}/api/uploads/${trick}`);
      if (res.status === 200) {
        expect(Buffer.from(await res.arrayBuffer()).equals(placeholder)).toBe(true);
      } else {
        expect(res.status).toBe(404);
      }
    }
  });

  it('orphan_uploads lists the bucket page by page and removes day-old objects no photo names, nothing else', async () => {
    // A bucket of its own, so the counts are exactly this test's; two keys a page, so the sweep must follow the pages.
    const own = await s3.bucket();
    const ctx: JobContext = {
      db: app.database.db,
      dialect,
      clock: app.clock,
      logger: createLogger('silent'),
      dataDir: app.database.dataDir,
      photos: new S3PhotoStore({ ...own, listPageSize: 2 }),
    };
    const person = await createPerson(app, { photos: 1 });
    const row = await app.database.db
      .selectFrom('photos')
      .select(['file_name', 'blur_name'])
      .where('profile_id', '=', person.profileId)
      .executeTakeFirstOrThrow();
    const kept = [row.file_name, row.file_name.replace(/\.jpg$/, '.thumb.jpg'), row.blur_name ?? ''];
    // Orphans sort after the kept names, so they sit on later pages.
    const orphanOld = [`${'e'.repeat(32)}.jpg`, `${'e'.repeat(32)}.thumb.jpg`, `${'f'.repeat(32)}.jpg`];
    const orphanNew = `${'d'.repeat(32)}.jpg`;
    const twoDaysAgo = new Date(app.clock.now().getTime() - 2 * day);
    for (const key of [...kept, ...orphanOld, orphanNew, 'zz-not-ours.jpg']) {
      await s3.client.send(new PutObjectCommand({ Bucket: own.bucket, Key: key, Body: 'x' }));
      if (key !== orphanNew) await s3.backdate(own.bucket, key, 1, twoDaysAgo);
    }
    const job = jobNamed('orphan_uploads');
    if (!job) throw new Error('no orphan_uploads job');
    const result = await runJob(job, ctx);
    expect(result).toEqual({ status: 'ok', counts: { checked: 7, deleted: 3 } });
    expect(await s3.keys(own.bucket)).toEqual([...kept, orphanNew, 'zz-not-ours.jpg'].sort());
    expect((await runJob(job, ctx)).counts).toEqual({ checked: 4, deleted: 0 });
  });

  it('with S3_PREFIX keeps, serves, lists and sweeps only its own folder, so deployments can share a bucket', async () => {
    const shared = await s3.bucket();
    const staging = new S3PhotoStore({ ...shared, prefix: 'iskra/staging', publicUrl: 'https://photos.iskra.test' });
    const ctx: JobContext = {
      db: app.database.db,
      dialect,
      clock: app.clock,
      logger: createLogger('silent'),
      dataDir: app.database.dataDir,
      photos: staging,
    };
    // Day-old names no photo row of this database holds: orphans to staging's sweep, whoever wrote them.
    const [a, b, c] = ['a', 'b', 'c'].map((ch) => `${ch.repeat(32)}.jpg`) as [string, string, string];
    const others = [`iskra/prod/${a}`, `iskra/prod/${b}`, c, `iskra/staging-old/${a}`];
    const ours = [`iskra/staging/${a}`, `iskra/staging/${b}`];
    const twoDaysAgo = new Date(app.clock.now().getTime() - 2 * day);
    for (const key of [...others, ...ours]) {
      await s3.client.send(new PutObjectCommand({ Bucket: shared.bucket, Key: key, Body: 'x' }));
      await s3.backdate(shared.bucket, key, 1, twoDaysAgo);
    }
    const job = jobNamed('orphan_uploads');
    if (!job) throw new Error('no orphan_uploads job');
    expect(await runJob(job, ctx)).toEqual({ status: 'ok', counts: { checked: 2, deleted: 2 } });
    expect(await s3.keys(shared.bucket)).toEqual([...others].sort());

    // A photo saved through the prefixed store lands in its folder, reads back by its bare name, and the
    // CDN's address holds the folder as the key does.
    const saved = await staging.save({
      photo: Buffer.from('photo'),
      thumb: Buffer.from('thumb'),
      blurred: Buffer.from('blur'),
    });
    expect(await s3.keys(shared.bucket)).toContain(`iskra/staging/${saved.fileName}`);
    const opened = await staging.open(saved.fileName);
    expect(opened).not.toBeNull();
    opened?.body.destroy();
    expect(await staging.open(c)).toBeNull();
    expect(staging.publicUrl).toBe('https://photos.iskra.test/iskra/staging');
  });

  describe('with PHOTO_PUBLIC_URL (a CDN in front of the bucket)', () => {
    let cdnApp: TestApp;
    let pageDist: string;
    beforeAll(async () => {
      // A page to read the policy from: the CSP rides on documents only.
      pageDist = mkdtempSync(path.join(tmpdir(), 'iskra-dist-'));
      writeFileSync(path.join(pageDist, 'index.html'), '<!doctype html><div id="root"></div>');
      cdnApp = await createTestApp(dialect, {
        database: app.database,
        frontendDist: pageDist,
        photoBucket: { ...bucket, publicUrl: 'https://photos.iskra.test/' },
      });
    });
    afterAll(async () => {
      await cdnApp.close();
      rmSync(pageDist, { recursive: true, force: true });
    });

    it('redirects our names to the CDN, lets <img> follow there, and still answers the placeholder for anything else', async () => {
      const name = `${'ab'.repeat(16)}.thumb.jpg`;
      const res = await fetch(`${cdnApp.url}/api/uploads/${name}`, { redirect: 'manual' });
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe(`https://photos.iskra.test/${name}`);
      expect(res.headers.get('cache-control')).toBe('public, max-age=86400');
      const page = await fetch(`${cdnApp.url}/search`);
      expect(page.headers.get('content-security-policy')).toMatch(/img-src [^;]* https:\/\/photos\.iskra\.test(;|$)/);
      for (const bad of ['notes.txt', '..%2F..%2Fpackage.json', `${'a'.repeat(31)}.jpg`]) {
        const refused = await fetch(`${cdnApp.url}/api/uploads/${bad}`, { redirect: 'manual' });
        expect(refused.status).toBe(200);
        expect(Buffer.from(await refused.arrayBuffer()).equals(placeholder)).toBe(true);
      }
    });
  });

  describe('when the bucket fails', () => {
    let brokenApp: TestApp;
    beforeAll(async () => {
      // A bucket that does not exist: every request is refused with NoSuchBucket, as for a wrong S3_BUCKET.
      brokenApp = await createTestApp(dialect, {
        database: app.database,
        photoBucket: await s3.bucket({ create: false }),
      });
    });
    afterAll(async () => {
      await brokenApp.close();
    });

    it('answers 503 photos_unavailable (logged, never cached) instead of a placeholder cached for a year, and stores nothing', async () => {
      const res = await fetch(`${brokenApp.url}/api/uploads/${'0'.repeat(32)}.jpg`);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await res.json()).toEqual({
        error: 'Photos are unavailable for a moment. Please try again shortly.',
        code: 'photos_unavailable',
      });
      expect(brokenApp.logs.join('')).toMatch(
        /NoSuchBucket.*photo store unavailable: answered 503|photo store unavailable: answered 503.*NoSuchBucket/,
      );

      const { browser, userId } = await signUpVerified(brokenApp);
      const upload = await browser.postForm('/api/create_profile', photoForm(photo, 1, 'photos', profileFields));
      expect(upload.status).toBe(503);
      expect(((await upload.json()) as { code: string }).code).toBe('photos_unavailable');
      expect(
        await app.database.db.selectFrom('profiles').select('id').where('user_id', '=', userId).executeTakeFirst(),
      ).toBeUndefined();
    });

    it('still deletes an account whose objects cannot be removed: logged, and left to the orphan sweep', async () => {
      const { browser } = await signUpVerified(app);
      const profile = await createProfile(browser, 1);
      const names = await storedNames(profile.id);
      // The same session, through the server whose bucket fails.
      const sameSession = new Browser(brokenApp.url);
      sameSession.setCookie('iskra_session', browser.cookie('iskra_session') ?? '');
      expect((await sameSession.post('/api/delete_account', { password: testPassword })).status).toBe(200);
      expect((await browser.get('/api/profile')).status).toBe(401);
      expect(brokenApp.logs.join('')).toContain('photo files of a deleted account not removed');
      const keys = await s3.keys(bucket.bucket);
      for (const name of names) expect(keys).toContain(name);
    });
  });
});
