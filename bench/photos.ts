/**
 * The photo pipeline: a 12-megapixel phone-sized JPEG through the whole upload endpoint
 * (multipart over HTTP, byte sniffing, header pixel count, sharp re-encode to 640x852 plus thumbnail,
 * files written, rows committed, the replaced photo's files removed) against sharp alone doing the same
 * re-encode on the same bytes in memory. Prints p50/p99 and the ratio (goal: within 1.25x).
 */
import path from 'node:path';
import sharp from 'sharp';
import { createApp } from '../server/app.ts';
import { createLogger } from '../server/logger.ts';
import { Browser } from '../server/test/browser.ts';
import { createTestDatabase } from '../server/test/testDatabase.ts';
import { listen, ratioLine, summary, time } from './benchKit.ts';

const rounds = 30;
const database = await createTestDatabase('sqlite');
const app = await listen(
  createApp({
    db: database.db,
    dialect: 'sqlite',
    databaseProbe: database.probe,
    logger: createLogger('silent'),
    mailer: { send: () => Promise.resolve() },
    uploadsDir: path.join(database.dataDir, 'uploads'),
    publicUrl: 'http://localhost:8080',
    sessionSecret: 'bench-secret-bench-secret-bench-secret',
  }),
);

// Blurred noise compresses like a real photo (a flat colour would flatter both sides).
const photo = await sharp({
  create: {
    width: 4000,
    height: 3000,
    channels: 3,
    background: '#808080',
    noise: { type: 'gaussian', mean: 128, sigma: 40 },
  },
})
  .blur(1.2)
  .jpeg({ quality: 90 })
  .withMetadata({ orientation: 6 })
  .toBuffer();

const browser = new Browser(app.url);
await browser.post('/api/register', { email: 'photos@example.com', password: 'bench12345' });
await database.db.updateTable('users').set({ verified_at: new Date().toISOString() }).execute();
const formWith = (fields: Record<string, string>, field: string) => {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append(field, new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'phone.jpg');
  return form;
};
const created = await browser.postForm(
  '/api/create_profile',
  formWith({ name: 'Bench', age: '30', gender: 'Male' }, 'photos'),
);
if (created.status !== 201) throw new Error(`create_profile failed: ${created.status} ${await created.text()}`);
let current = ((await created.json()) as { profile: { photos: string[] } }).profile.photos[0] ?? '';

async function uploadOnce(): Promise<void> {
  const res = await browser.postForm(
    '/api/edit_profile',
    formWith({ payload: JSON.stringify({ deletedPhotos: [current], newPhotos: 1 }) }, 'newPhotos'),
  );
  if (res.status !== 200) throw new Error(`edit_profile failed: ${res.status} ${await res.text()}`);
  current = ((await res.json()) as { profile: { photos: string[] } }).profile.photos[0] ?? '';
}
const sharpAlone = () =>
  sharp(photo).rotate().resize(640, 852, { fit: 'cover' }).jpeg({ quality: 82, mozjpeg: true }).toBuffer();

console.log(`\nPhoto pipeline: 4000x3000 JPEG, ${(photo.length / 1024 / 1024).toFixed(1)} MB, EXIF orientation 6`);
for (let i = 0; i < 3; i++) {
  await uploadOnce();
  await sharpAlone();
}
// Interleaved, so both sides see the same machine state.
const endpoint: number[] = [];
const alone: number[] = [];
for (let i = 0; i < rounds; i++) {
  endpoint.push(await time(uploadOnce));
  alone.push(await time(sharpAlone));
}
const e = summary('upload endpoint (HTTP, 12 MP -> 640x852)', endpoint);
const s = summary('sharp alone (same bytes, same output)', alone);
ratioLine('ratio endpoint / sharp alone', e, s, {
  measure: '12 MP JPEG through the upload endpoint',
  floor: 'sharp alone, same bytes and output',
  goal: '<= 1.25x',
});

app.close();
await database.drop();
