/**
 * The moderation models (issue 40, docs/trust.md): what a selfie check and an upload's screening cost, how much
 * memory the models take, and whether the event loop stays free while they work.
 * - a selfie through `POST /api/verification` (the person's photo described, the selfie analysed, the decision
 *   committed) with the models, against the same request with MODERATION_ML=off (the floor: pipeline and rows);
 * - an upload through `POST /api/edit_profile` screened by nsfwjs, against the same upload unscreened;
 * - `GET /api/config` at 50 a second while 10 selfies are checked at once, against the same load alone (p99);
 * - the process's RSS with the models loaded against the same process before (MODERATION_ML=off);
 * - the similarities of the sample faces (test/sampleFaces.ts), for docs/trust.md.
 * Not in the usual set: it loads about 350 MB of models (`npm run bench moderation`).
 */
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createApp } from '../server/app.ts';
import { createLogger } from '../server/logger.ts';
import {
  bestSimilarity,
  modelsOff,
  type ModerationModels,
  WorkerModels,
} from '../server/features/moderationModels/index.ts';
import { Browser } from '../server/test/browser.ts';
import { offeredPose } from '../server/test/offeredPose.ts';
import { noise, sampleFaces, tilted, twoPeople } from '../server/test/sampleFaces.ts';
import { createTestDatabase } from '../server/test/testDatabase.ts';
import { headline, line, listen, openLoop, quantile, ratioLine, summary, time } from './benchKit.ts';

const rounds = 8;
const logger = createLogger('silent');
const faces = await sampleFaces();
const selfiePhoto = await tilted(faces.man, 25);

async function startApp(models: ModerationModels) {
  const database = await createTestDatabase('sqlite');
  const app = await listen(
    createApp({
      db: database.db,
      dialect: 'sqlite',
      databaseProbe: database.probe,
      logger,
      mailer: { send: () => Promise.resolve() },
      uploadsDir: path.join(database.dataDir, 'uploads'),
      publicUrl: 'http://localhost:8080',
      sessionSecret: 'bench-secret-bench-secret-bench-secret',
      moderationModels: models,
    }),
  );
  let people = 0;
  const form = (fields: Record<string, string>, field: string, photo: Buffer) => {
    const data = new FormData();
    for (const [k, v] of Object.entries(fields)) data.append(k, v);
    data.append(field, new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'photo.jpg');
    return data;
  };
  /** A person with a profile made through the API, their photo the sample man. */
  async function person(): Promise<{ browser: Browser; photos: string[] }> {
    const browser = new Browser(app.url);
    people += 1;
    await browser.post('/api/register', { email: `m${people}@example.com`, password: 'bench12345' });
    await database.db.updateTable('users').set({ verified_at: new Date().toISOString() }).execute();
    const res = await browser.postForm(
      '/api/create_profile',
      form({ name: 'Bench', age: '30', gender: 'Male' }, 'photos', faces.man),
    );
    if (res.status !== 201) throw new Error(`create_profile failed: ${res.status} ${await res.text()}`);
    return { browser, photos: ((await res.json()) as { profile: { photos: string[] } }).profile.photos };
  }
  async function selfie(browser: Browser): Promise<string> {
    const res = await browser.postForm(
      '/api/verification',
      form({ ...(await offeredPose(browser, 'tilt_left')), consent: 'true' }, 'selfie', selfiePhoto),
    );
    if (res.status !== 200) throw new Error(`verification failed: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { status: string }).status;
  }
  async function upload(who: { browser: Browser; photos: string[] }): Promise<void> {
    const res = await who.browser.postForm(
      '/api/edit_profile',
      form({ payload: JSON.stringify({ deletedPhotos: who.photos, newPhotos: 1 }) }, 'newPhotos', faces.woman1),
    );
    if (res.status !== 200) throw new Error(`edit_profile failed: ${res.status} ${await res.text()}`);
    who.photos = ((await res.json()) as { profile: { photos: string[] } }).profile.photos;
  }
  return {
    url: app.url,
    person,
    selfie,
    upload,
    async close() {
      app.close();
      await database.drop();
    },
  };
}

const mb = () => Math.round(process.memoryUsage().rss / 1024 / 1024);

// With the models off: the floors, and the process's memory without models.
const off = await startApp(modelsOff);
const offPeople = await Promise.all(Array.from({ length: rounds + 2 }, () => off.person()));
const offSelfie: number[] = [];
const offUpload: number[] = [];
for (const [i, who] of offPeople.entries()) {
  const selfieMs = await time(() => off.selfie(who.browser));
  const uploadMs = await time(() => off.upload(who));
  if (i >= 2) offSelfie.push(selfieMs);
  if (i >= 2) offUpload.push(uploadMs);
}
const rssOff = mb();

// With the models: loaded on first use in their thread.
const models = new WorkerModels(logger, { answerMs: 120_000 });
const loadStarted = performance.now();
await models.ready();
const loadMs = performance.now() - loadStarted;
const on = await startApp(models);
const onPeople = await Promise.all(Array.from({ length: rounds + 2 }, () => on.person()));
const onSelfie: number[] = [];
const onUpload: number[] = [];
const statuses: string[] = [];
for (const [i, who] of onPeople.entries()) {
  let status = '';
  const selfieMs = await time(async () => {
    status = await on.selfie(who.browser);
  });
  statuses.push(status);
  const uploadMs = await time(() => on.upload(who));
  if (i >= 2) onSelfie.push(selfieMs);
  if (i >= 2) onUpload.push(uploadMs);
}
const rssOn = mb();

console.log(`\nModeration models: ${rounds} selfies and uploads each way, sample faces from @vladmandic/human`);
line('models loaded in', `${Math.round(loadMs)} ms`);
line('selfie decisions', statuses.join(' '));
const selfieOn = summary('selfie check with models (HTTP, 2 faces analysed)', onSelfie);
const selfieOff = summary('same request, MODERATION_ML=off', offSelfie);
ratioLine('ratio selfie with models / without', selfieOn, selfieOff, {
  measure: 'POST /api/verification with the models',
  floor: 'the same request with MODERATION_ML=off',
});
const uploadOn = summary('upload screened (nsfwjs; HTTP)', onUpload);
const uploadOff = summary('same upload unscreened', offUpload);
ratioLine('ratio upload screened / unscreened', uploadOn, uploadOff, {
  measure: 'a photo upload screened by nsfwjs',
  floor: 'the same upload with MODERATION_ML=off',
});

// The event loop while 10 selfies are checked at once: a trivial GET at 50/s, alone and then beside them.
const rate = 50;
const trivial = () => ({ url: `${on.url}/api/config`, headers: {} });
// The event loop's own delay (perf_hooks), beside the GET: what the loop itself waited, whatever the load.
const loopDelay = () => {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  return () => {
    histogram.disable();
    return histogram.percentile(99) / 1e6;
  };
};
const aloneLoop = loopDelay();
const alone = await openLoop(trivial, rate, 4);
const aloneDelay = aloneLoop();
const busyPeople = await Promise.all(Array.from({ length: 10 }, () => on.person()));
const checking = Promise.all(busyPeople.map((who) => on.selfie(who.browser)));
const started = performance.now();
const besideLoop = loopDelay();
const beside = await openLoop(trivial, rate, 4);
const besideDelay = besideLoop();
await checking;
const checkingMs = performance.now() - started;
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const aloneQ = summary('GET /api/config at 50/s alone', alone.latencies);
const besideQ = summary('GET /api/config at 50/s during 10 selfie checks', beside.latencies);
line('10 selfie checks took', `${Math.round(checkingMs)} ms (GET failures: ${beside.failures})`);
ratioLine('ratio trivial GET during selfies / alone', besideQ, aloneQ, {
  measure: 'p99 of a trivial GET while 10 selfies are checked',
  floor: 'the same GET load with nothing else',
});
line(
  'p99 alone / during',
  `${quantile(sorted(alone.latencies), 0.99).toFixed(1)} ms / ${quantile(sorted(beside.latencies), 0.99).toFixed(1)} ms`,
);

line('event-loop delay p99 alone / during', `${aloneDelay.toFixed(1)} ms / ${besideDelay.toFixed(1)} ms`);
headline({
  measure: 'event-loop delay p99 while 10 selfies are checked',
  ratio: besideDelay / aloneDelay,
  floor: 'the same GET load with nothing else',
  value: `${besideDelay.toFixed(1)} ms against ${aloneDelay.toFixed(1)} ms`,
});
line('RSS with MODERATION_ML=off', `${rssOff} MB`);
line('RSS with the models loaded', `${rssOn} MB (+${rssOn - rssOff} MB)`);
headline({
  measure: 'RSS with the models loaded',
  ratio: rssOn / rssOff,
  floor: 'the same process before (MODERATION_ML=off)',
  value: `${rssOn} MB against ${rssOff} MB`,
});

// The sample faces' scores (docs/trust.md).
const describe = async (photo: Buffer) => {
  const analysis = await models.faces(photo);
  return analysis?.faces[0]?.descriptor ?? null;
};
const man = await describe(faces.man);
const pairs: [string, Buffer][] = [
  ['man tilted 25°', selfiePhoto],
  ['man tilted -25°', await tilted(faces.man, -25)],
  ['man mirrored', await (await import('sharp')).default(faces.man).flop().jpeg().toBuffer()],
  ['woman1', faces.woman1],
  ['woman2', faces.woman2],
  ['woman3', faces.woman3],
  ['woman4', faces.woman4],
];
for (const [name, photo] of pairs) {
  const other = await describe(photo);
  line(`similarity man / ${name}`, man && other ? bestSimilarity(man, [other]).toFixed(2) : 'no face');
}
const women = [faces.woman1, faces.woman2, faces.woman3, faces.woman4];
const womenDescriptors = (await Promise.all(women.map(describe))).filter((d): d is number[] => d !== null);
const impostor: number[] = [];
for (let i = 0; i < womenDescriptors.length; i++)
  for (let j = i + 1; j < womenDescriptors.length; j++)
    impostor.push(bestSimilarity(womenDescriptors[i] ?? [], [womenDescriptors[j] ?? []]));
line('similarity between the four women', impostor.map((s) => s.toFixed(2)).join(' '));
line(
  'faces found in noise / two people',
  `${(await models.faces(await noise()))?.faces.length} / ${(await models.faces(await twoPeople(faces.man, faces.woman2)))?.faces.length}`,
);
for (const [name, photo] of [
  ['man', faces.man],
  ['woman1', faces.woman1],
  ['noise', await noise()],
] as const) {
  const classes = await models.nsfw(photo);
  line(
    `nsfw classes ${name}`,
    JSON.stringify(Object.fromEntries(Object.entries(classes ?? {}).map(([k, v]) => [k, Number(v.toFixed(3))]))),
  );
}

await on.close();
await off.close();
await models.close();
