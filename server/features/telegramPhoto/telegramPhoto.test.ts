import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json } from '../../test/browser.ts';
import { jpegWithGps, textRenamedJpg } from '../../test/images.ts';
import { createPerson, type Person } from '../../test/people.ts';
import { testBotToken } from '../../test/telegramSigning.ts';
import { TelegramStandIn } from '../../test/telegramStandIn.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';
import { telegramPhotosPerHour } from './service.ts';

let telegramIds = 720_000_000;

describe.each(testDialects())('the wizard offers the own Telegram profile photo on %s', (dialect) => {
  let app: TestApp;
  let telegram: TelegramStandIn;
  beforeAll(async () => {
    telegram = new TelegramStandIn();
    const telegramApiRoot = await telegram.start();
    app = await createTestApp(dialect, { botToken: testBotToken, telegramApiRoot });
  });
  afterAll(async () => {
    await app.close();
    await telegram.stop();
  });

  const telegramPerson = async (): Promise<Person & { telegramId: number }> => {
    const person = await createPerson(app);
    const telegramId = ++telegramIds;
    await app.database.db
      .updateTable('users')
      .set({ telegram_id: String(telegramId) })
      .where('id', '=', person.userId)
      .execute();
    return { ...person, telegramId };
  };
  const photoOf = (person: Person) => person.browser.get('/api/telegram/profile_photo');

  it('reads the largest size through the Bot API and hands it back re-encoded, without EXIF or GPS', async () => {
    const me = await telegramPerson();
    const original = await jpegWithGps(1200, 1200);
    expect((await sharp(original).metadata()).exif).toBeDefined();
    telegram.profilePhotos.set(me.telegramId, original);

    const res = await photoOf(me);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const bytes = Buffer.from(await res.arrayBuffer());
    const meta = await sharp(bytes).metadata();
    expect([meta.format, meta.width, meta.height, meta.exif]).toEqual(['jpeg', 1200, 1200, undefined]);
    expect(bytes.includes(Buffer.from('Exif'))).toBe(false);
    // Asked for this user's photos, then the file of the largest size.
    expect(telegram.callsOf('getUserProfilePhotos').at(-1)).toMatchObject({ user_id: me.telegramId, limit: 1 });
    expect(telegram.callsOf('getFile').at(-1)).toEqual({ file_id: `big_${me.telegramId}` });
  });

  it('answers 404 no_telegram_photo without a photo or without Telegram, 401 signed out, 503 when Telegram fails', async () => {
    const bare = await telegramPerson();
    const web = await createPerson(app);
    for (const person of [bare, web]) {
      const res = await photoOf(person);
      expect(res.status).toBe(404);
      expect(await json(res)).toMatchObject({ code: 'no_telegram_photo' });
    }
    const out = await createPerson(app);
    await out.browser.post('/api/logout', {});
    expect((await photoOf(out)).status).toBe(401);

    const unlucky = await telegramPerson();
    telegram.profilePhotos.set(unlucky.telegramId, await jpegWithGps(640, 640));
    telegram.failNext('getUserProfilePhotos', { error_code: 500, description: 'Internal Server Error' });
    const failed = await photoOf(unlucky);
    expect(failed.status).toBe(503);
    expect(await json(failed)).toMatchObject({ code: 'telegram_unavailable' });
    expect((await photoOf(unlucky)).status).toBe(200);

    // Whatever Telegram hands over goes through the upload's checks.
    const odd = await telegramPerson();
    telegram.profilePhotos.set(odd.telegramId, textRenamedJpg());
    const refused = await photoOf(odd);
    expect(refused.status).toBe(400);
    expect(await json(refused)).toMatchObject({ code: 'invalid_image' });
  });

  it('reads at most telegramPhotosPerHour an hour per person, then 429 without calling Telegram', async () => {
    const busy = await telegramPerson();
    const other = await telegramPerson();
    for (const person of [busy, other]) telegram.profilePhotos.set(person.telegramId, await jpegWithGps(64, 64));
    const answers = await Promise.all(
      Array.from({ length: telegramPhotosPerHour + 3 }, () => photoOf(busy).then((res) => res.status)),
    );
    expect(answers.filter((status) => status === 200)).toHaveLength(telegramPhotosPerHour);
    expect(answers.filter((status) => status === 429)).toHaveLength(3);
    const calls = telegram.callsOf('getUserProfilePhotos').length;
    const refused = await photoOf(busy);
    expect(await json(refused)).toMatchObject({ code: 'telegram_photo_rate_limited' });
    expect(telegram.callsOf('getUserProfilePhotos')).toHaveLength(calls);
    // Counted per person: someone else is not held back.
    expect((await photoOf(other)).status).toBe(200);
  });

  it('answers 404 when the server has no bot', async () => {
    const botless = await createTestApp(dialect, { database: app.database });
    try {
      const person = await createPerson(botless);
      await app.database.db
        .updateTable('users')
        .set({ telegram_id: String(++telegramIds) })
        .where('id', '=', person.userId)
        .execute();
      expect((await person.browser.get('/api/telegram/profile_photo')).status).toBe(404);
    } finally {
      await botless.close();
    }
  });
});
