import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OwnProfileResponse } from '../../contract/profiles.ts';
import { createLogger } from '../../logger.ts';
import { signUpVerified } from '../../test/accounts.ts';
import { json } from '../../test/browser.ts';
import { jpegWithGps } from '../../test/images.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';
import { UploadScreening, WorkerModels } from './index.ts';

/**
 * The models' thread when it fails: a real worker thread running a stand-in script that loads at once and
 * then never answers, or exits on a face request. Screening must fail closed (hold, never reject), nothing
 * may wait longer than its deadline, and a dead thread must not take every later request with it.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'iskra-model-worker-'));
const stallingWorker = path.join(dir, 'stalling.mjs');
const exitingWorker = path.join(dir, 'exiting.mjs');
writeFileSync(
  stallingWorker,
  `import { parentPort } from 'node:worker_threads';
parentPort.postMessage({ ready: true, loadMs: 0 });
parentPort.on('message', () => undefined);
`,
);
writeFileSync(
  exitingWorker,
  `import { parentPort } from 'node:worker_threads';
parentPort.postMessage({ ready: true, loadMs: 0 });
parentPort.on('message', (m) => {
  if (m.kind === 'tensors') parentPort.postMessage({ id: m.id, ok: true, result: { tensors: 7 }, ms: 0 });
  else process.exit(3);
});
`,
);
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const silent = createLogger('silent');
const image = Buffer.from('any bytes: the stand-in never reads them');

describe('the models’ thread failing', () => {
  it('answers null past the deadline, refuses beyond the queue bound at once, and screening holds', async () => {
    const models = new WorkerModels(silent, { workerFile: stallingWorker, answerMs: 500, maxQueued: 2 });
    try {
      expect(await models.ready()).toBe(true);
      const first = models.nsfw(image);
      const second = models.faces(image);
      // The queue is full: the third is refused without waiting for the deadline (the first two still wait).
      let firstSettled = false;
      void first.then(() => (firstSettled = true));
      expect(await models.nsfw(image)).toBeNull();
      expect(firstSettled).toBe(false);
      expect(await first).toBeNull();
      expect(await second).toBeNull();
      // Models on, no answer: the upload is held for a moderator (fail closed), never refused.
      expect(models.on).toBe(true);
      const screen = await new UploadScreening(models).screen(image, true);
      expect(screen).toEqual({ score: null, held: true, descriptor: null });
    } finally {
      await models.close();
    }
  });

  it('fails what waits at once when the thread exits, and starts a new one for the next request', async () => {
    // A deadline far beyond the test's own timeout: only the exit can settle the request in time.
    const models = new WorkerModels(silent, { workerFile: exitingWorker, answerMs: 600_000 });
    try {
      expect(await models.ready()).toBe(true);
      expect(await models.faces(image)).toBeNull();
      expect(models.on).toBe(true);
      // A new thread answers.
      expect(await models.tensors()).toBe(7);
      expect(await models.faces(image)).toBeNull();
      expect(await models.tensors()).toBe(7);
    } finally {
      await models.close();
    }
  });

  it('off is not a failure: nothing is held', async () => {
    const models = new WorkerModels(silent, { workerFile: stallingWorker });
    await models.close();
    expect(models.on).toBe(false);
    expect((await new UploadScreening(models).screen(image, false)).held).toBe(false);
  });
});

describe.each(testDialects())('uploads while the models stall on %s', (dialect) => {
  let app: TestApp;
  const models = new WorkerModels(silent, { workerFile: stallingWorker, answerMs: 300 });

  beforeAll(async () => {
    app = await createTestApp(dialect, { moderationModels: models });
  });
  afterAll(async () => {
    await app.close();
    await models.close();
  });

  it('holds the new photo for review (shown to its owner as under review) instead of showing it unscreened', async () => {
    const { browser } = await signUpVerified(app);
    const form = new FormData();
    for (const [key, value] of Object.entries({ name: 'Иван', age: '35', gender: 'Male', city: 'Москва', bio: '' }))
      form.append(key, value);
    form.append('photos', new Blob([new Uint8Array(await jpegWithGps(600, 800))], { type: 'image/jpeg' }), 'p.jpg');
    const res = await browser.postForm('/api/create_profile', form);
    expect(res.status).toBe(201);
    const { profile } = await json<{ profile: OwnProfileResponse }>(res);
    const rows = await app.database.db
      .selectFrom('photos')
      .select(['moderation', 'screen_score'])
      .where('profile_id', '=', profile.id)
      .execute();
    expect(rows).toEqual([{ moderation: 'held', screen_score: null }]);
    expect(profile.under_review).toHaveLength(1);
  });
});
