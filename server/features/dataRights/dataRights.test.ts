import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signUpVerified, testPassword } from '../../test/accounts.ts';
import { passwordTriesPerHour } from '../accounts/index.ts';
import { json } from '../../test/browser.ts';
import { jpegWithGps } from '../../test/images.ts';
import { createPerson } from '../../test/people.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { testProfileId } from '../../test/testIds.ts';
import { testDialects } from '../../test/testDatabase.ts';

describe.each(testDialects())('data export and account deletion on %s', (dialect) => {
  let app: TestApp;
  beforeEach(async () => {
    app = await createTestApp(dialect);
  });
  afterEach(async () => {
    await app.close();
  });

  /** A password account with a real profile (two photos on disk), a match, messages both ways and a payment row. */
  async function fullAccount() {
    const me = await signUpVerified(app);
    const form = new FormData();
    for (const [k, v] of Object.entries({
      name: 'Мария',
      age: '29',
      gender: 'Female',
      city: 'Москва',
      bio: 'Моё',
      latitude: '55.75',
      longitude: '37.61',
    }))
      form.append(k, v);
    const photo = await jpegWithGps();
    for (const name of ['a.jpg', 'b.jpg'])
      form.append('photos', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), name);
    expect((await me.browser.postForm('/api/create_profile', form)).status).toBe(201);
    const myProfile = await json<{ id: number; photos: string[] }>(await me.browser.get('/api/profile'));
    const other = await createPerson(app, { name: 'Олег', gender: 'Male', premium: true });
    await me.browser.post('/api/like', { profile_id: other.profileId });
    await other.browser.post('/api/like', { profile_id: myProfile.id });
    const { conversation_id } = await json<{ conversation_id: number }>(
      await me.browser.post('/api/conversations/start', { profile_id: other.profileId }),
    );
    await me.browser.post(`/api/conversations/${conversation_id}/messages`, { content: 'мой секрет' });
    await other.browser.post(`/api/conversations/${conversation_id}/messages`, { content: 'его ответ' });
    await app.database.db
      .insertInto('payments')
      .values({
        user_id: me.userId,
        provider: 'test',
        plan_id: 'month',
        amount: 499,
        currency: 'RUB',
        interval_days: 30,
        idempotence_key: `k-${me.userId}`,
        provider_payment_id: null,
        status: 'pending',
        created_at: new Date().toISOString(),
        credited_at: null,
      })
      .execute();
    return { me, myProfile, other, conversation_id };
  }

  it('exports exactly the caller’s data as one JSON download', async () => {
    const { me, myProfile, other } = await fullAccount();
    const res = await me.browser.get('/api/export');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="iskra-my-data\.json"/);
    const data = await json(res);
    const text = JSON.stringify(data);
    expect((data.account as { email: string }).email).toBe(me.email);
    expect((data.profile as { id: number }).id).toBe(myProfile.id);
    expect((data.photos as { url: string }[]).map((p) => path.basename(p.url))).toEqual(myProfile.photos);
    expect(data.likes_given).toEqual([{ profile_id: other.profileId, liked: true, at: expect.any(String) as unknown }]);
    expect((data.matches as { profile_id: number }[]).map((m) => m.profile_id)).toEqual([other.profileId]);
    expect((data.messages_sent as { content: string }[]).map((m) => m.content)).toEqual(['мой секрет']);
    expect((data.payments as { amount: number }[]).map((p) => p.amount)).toEqual([499]);
    // Nobody else's words, and no secrets.
    expect(text).not.toContain('его ответ');
    expect(text).not.toContain('argon2');
    expect((await other.browser.get('/api/export')).status).toBe(200);
    expect(JSON.stringify(await json(await other.browser.get('/api/export')))).not.toContain('мой секрет');
    expect((await fetch(`${app.url}/api/export`)).status).toBe(401);
  });

  it('deletes the account only with the password, and leaves no row or file that identifies the user', async () => {
    const { me, myProfile, other, conversation_id } = await fullAccount();
    // A search stores the caller's discovery pool, which must go with the account.
    await me.browser.get('/api/search');
    expect(
      await app.database.db
        .selectFrom('search_pools')
        .select('profile_id')
        .where('profile_id', '=', testProfileId(myProfile.id))
        .execute(),
    ).toHaveLength(1);
    const uploads = path.join(app.database.dataDir, 'uploads');
    expect(myProfile.photos.every((name) => existsSync(path.join(uploads, name)))).toBe(true);

    const noPassword = await me.browser.post('/api/delete_account', {});
    expect([noPassword.status, (await json<{ code: string }>(noPassword)).code]).toEqual([403, 'password_required']);
    const wrong = await me.browser.post('/api/delete_account', { password: 'not-my-password1' });
    expect([wrong.status, (await json<{ code: string }>(wrong)).code]).toEqual([403, 'wrong_password']);
    expect((await me.browser.post('/api/delete_account', { password: 123 })).status).toBe(400);
    expect((await me.browser.get('/api/profile')).status).toBe(200);

    expect(me.browser.cookie('iskra_device')).toBeDefined(); // set when the account was registered
    expect((await me.browser.post('/api/delete_account', { password: testPassword })).status).toBe(200);
    expect(me.browser.cookie('iskra_device')).toBeUndefined();
    expect((await me.browser.get('/api/current_user')).status).toBe(200);
    expect((await json<{ authorized: boolean }>(await me.browser.get('/api/current_user'))).authorized).toBe(false);

    // Every table: no row holds the user's id, profile id or e-mail.
    const db = app.database.db;
    const tables =
      dialect === 'sqlite'
        ? (
            await sql<{
              name: string;
            }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'kysely_%'`.execute(
              db,
            )
          ).rows.map((r) => r.name)
        : (
            await sql<{
              name: string;
            }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_name not like 'kysely_%'`.execute(
              db,
            )
          ).rows.map((r) => r.name);
    const byUser = [
      'users.id',
      'profiles.user_id',
      'sessions.user_id',
      'verification_codes.user_id',
      'events.user_id',
      'notification_jobs.user_id',
      'telegram_link_tokens.user_id',
      'payments.user_id',
    ];
    const byProfile = [
      'profiles.id',
      'photos.profile_id',
      'swipes.swiper_id',
      'swipes.target_id',
      'matches.profile_low',
      'matches.profile_high',
      'blocks.blocker_id',
      'blocks.blocked_id',
      'reports.reporter_id',
      'reports.reported_id',
      'messages.sender_id',
      'search_pools.profile_id',
      'swipe_undos.profile_id',
      'swipe_undos.target_id',
    ];
    for (const table of tables) {
      const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db)).rows;
      expect(JSON.stringify(rows), table).not.toContain(me.email);
      for (const [key, value] of [
        ...byUser.map((k) => [k, me.userId] as const),
        ...byProfile.map((k) => [k, myProfile.id] as const),
      ]) {
        const [owner, column] = key.split('.') as [string, string];
        if (owner === table)
          expect(
            rows.filter((r) => Number(r[column]) === value),
            key,
          ).toEqual([]);
      }
    }
    expect((await db.selectFrom('conversations').select('id').where('id', '=', conversation_id).execute()).length).toBe(
      0,
    );
    // The photo files are gone from disk, and the other person's account is untouched.
    const left = readdirSync(uploads);
    for (const name of myProfile.photos) expect(left).not.toContain(name);
    expect((await other.browser.get('/api/matches')).status).toBe(200);
    expect(await json(await other.browser.get('/api/matches'))).toEqual([]);
  });

  it('asks a password-less account (Telegram, Google) for a fresh sign-in', async () => {
    const person = await createPerson(app, { name: 'Тг' });
    // createPerson's session was made now: fresh.
    app.clock.advance(11 * 60);
    const stale = await person.browser.post('/api/delete_account', {});
    expect([stale.status, (await json<{ code: string }>(stale)).code]).toEqual([403, 'reauth_required']);
    expect(
      (await app.database.db.selectFrom('users').select('id').where('id', '=', person.userId).execute()).length,
    ).toBe(1);
    const fresh = await createPerson(app, { name: 'Свежий' });
    expect((await fresh.browser.post('/api/delete_account', {})).status).toBe(200);
    expect(
      (await app.database.db.selectFrom('users').select('id').where('id', '=', fresh.userId).execute()).length,
    ).toBe(0);
  });

  it('stops guessing the password after the hourly tries, shared with the account settings', async () => {
    const me = await signUpVerified(app);
    const codeOf = async (res: Response) => [res.status, (await json<{ code: string }>(res)).code];
    // Half the tries spent on the password change, the rest here: one counter for every check of the password.
    for (let i = 0; i < passwordTriesPerHour; i += 1) {
      const guess =
        i % 2 === 0
          ? me.browser.post('/api/account/password', {
              current_password: `guess-${i}-xyz`,
              password: 'AnotherPassw0rd!',
            })
          : me.browser.post('/api/delete_account', { password: `guess-${i}-xyz` });
      expect(await codeOf(await guess)).toEqual([403, 'wrong_password']);
    }
    // Past the limit even the right password is not checked, and the account stays.
    const refused = await me.browser.post('/api/delete_account', { password: testPassword });
    expect(await codeOf(refused)).toEqual([429, 'too_many_password_attempts']);
    expect((await app.database.db.selectFrom('users').select('id').where('id', '=', me.userId).execute()).length).toBe(
      1,
    );
    // Two hours on, the sliding hour holds none of the tries.
    app.clock.advance(7200);
    expect((await me.browser.post('/api/delete_account', { password: testPassword })).status).toBe(200);
  });
});
