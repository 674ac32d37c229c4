import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AdminAuditPage,
  AdminHeldPhoto,
  AdminPerson,
  AdminReport,
  AdminStats,
  AdminVerification,
} from '../../contract/admin.ts';
import { Browser, json } from '../../test/browser.ts';
import { EventStreamClient } from '../../test/eventStream.ts';
import { createPerson, type Person } from '../../test/people.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';
import { InProcessEventBus } from '../events/index.ts';

const adminEmail = `Moderator-${process.pid}@Iskra.test`;
const adminTelegramId = 7_200_000_001;
const unknownRoute = { error: 'Not found', code: 'not_found' };
let names = 0;
/** A name the disk photo store accepts (32 hex digits). */
const photoName = () => `${(++names).toString(16).padStart(8, '0')}${'c'.repeat(24)}.jpg`;

describe.each(testDialects())('the moderation console on %s', (dialect) => {
  let app: TestApp;
  let admin: Person;
  let uploads: string;

  beforeAll(async () => {
    app = await createTestApp(dialect, {
      adminEmails: [adminEmail.toLowerCase()],
      adminTelegramIds: [adminTelegramId],
      eventBus: new InProcessEventBus(),
      eventHeartbeatMs: 200,
    });
    uploads = path.join(app.database.dataDir, 'uploads');
    await mkdir(uploads, { recursive: true });
    admin = await createPerson(app, { name: 'Модератор' });
    await app.database.db
      .updateTable('users')
      .set({ email: adminEmail.toLowerCase() })
      .where('id', '=', admin.userId)
      .execute();
  });
  afterAll(async () => {
    await app.close();
  });

  const get = async <T>(path: string, who: Person = admin) => {
    const res = await who.browser.get(path);
    expect(res.status, `${path}: ${res.status}`).toBe(200);
    return json<T>(res);
  };
  const auditOf = (userId: number) =>
    app.database.db
      .selectFrom('admin_actions')
      .select(['admin', 'action', 'reason'])
      .where('target_user_id', '=', userId)
      .orderBy('id')
      .execute();

  it('answers every console route with the unknown route’s 404 to visitors and members, whatever the method', async () => {
    const member = await createPerson(app);
    const visitor = new Browser(app.url);
    const routes = app.routes.filter((r) => r.path.startsWith('/api/admin'));
    expect(routes.length).toBeGreaterThanOrEqual(14);
    // The router matches without case and with a trailing slash: every spelling it would route must be gated.
    const spellings = (path: string) =>
      [
        path,
        path.replace('/api/admin', '/api/Admin'),
        path.toUpperCase(),
        `${path}/`,
        path.replace('/api/admin', '/api/%41dmin'),
        path.replace('/api/admin', '/api/%2541dmin'),
        path.replace('/api/admin', '/api//admin'),
        path.replace('/api/admin/', '/api/admin%2F'),
      ].map((url) => `${url}?q=${member.userId}&days=7`);
    for (const route of routes) {
      const path = route.path.replace(/:id/g, '1');
      // One route's spellings at a time, in parallel: about 500 requests in all, on a loaded machine too.
      const tries = spellings(path).flatMap((url) =>
        [visitor, member.browser].flatMap((who) =>
          ['GET', 'POST'].map(async (method) => {
            const res = method === 'GET' ? await who.get(url) : await who.post(url, { action: 'ban' });
            return { call: `${method} ${url}`, status: res.status, body: (await res.json()) as unknown };
          }),
        ),
      );
      for (const answer of await Promise.all(tries))
        expect(answer, answer.call).toEqual({ call: answer.call, status: 404, body: unknownRoute });
    }
    // The mixed-case spelling does reach the console for an admin: the gate let it through as itself.
    expect((await admin.browser.get('/api/Admin/me')).status).toBe(200);
    expect(
      await app.database.db
        .selectFrom('users')
        .select('banned_at')
        .where('id', '=', member.userId)
        .executeTakeFirstOrThrow(),
    ).toEqual({ banned_at: null });
    // What a member sees is what an unknown route answers.
    expect(await json(await member.browser.get('/api/nothing-here'))).toEqual(unknownRoute);
    expect(await get<{ admin: boolean; name: string }>('/api/admin/me')).toEqual({
      admin: true,
      name: `email:${adminEmail.toLowerCase()}`,
    });
  });

  it('admits an ADMIN_EMAILS address only once verified, and a linked ADMIN_TELEGRAM_IDS account', async () => {
    const unverified = await createPerson(app, { verified: false });
    const other = `${adminEmail}.other`;
    await app.database.db.updateTable('users').set({ email: other }).where('id', '=', unverified.userId).execute();
    expect((await unverified.browser.get('/api/admin/me')).status).toBe(404);
    const viaTelegram = await createPerson(app);
    await app.database.db
      .updateTable('users')
      .set({ telegram_id: String(adminTelegramId) })
      .where('id', '=', viaTelegram.userId)
      .execute();
    expect(await get<{ name: string }>('/api/admin/me', viaTelegram)).toEqual({
      admin: true,
      name: `telegram:${adminTelegramId}`,
    });
  });

  async function chattedAndReported(reason = 'fake') {
    const reporter = await createPerson(app, { gender: 'Male', name: 'Жалобщик' });
    const target = await createPerson(app, { gender: 'Female', name: 'Подозрительная', photos: 2 });
    expect((await reporter.browser.post('/api/like', { profile_id: target.profileId })).status).toBe(200);
    expect((await target.browser.post('/api/like', { profile_id: reporter.profileId })).status).toBe(200);
    const started = await json<{ conversation_id: number }>(
      await target.browser.post('/api/conversations/start', { profile_id: reporter.profileId }),
    );
    const sent = await target.browser.post(`/api/conversations/${started.conversation_id}/messages`, {
      content: 'переведи мне денег',
    });
    expect(sent.status).toBe(201);
    // One of the person's photos is held by the upload screen: members never see it, the console does.
    await app.database.db
      .updateTable('photos')
      .set({ moderation: 'held', screen_score: 0.91 })
      .where('profile_id', '=', target.profileId)
      .where('position', '=', 1)
      .execute();
    expect(
      (await reporter.browser.post('/api/report', { profile_id: target.profileId, reason, comment: 'просит деньги' }))
        .status,
    ).toBe(200);
    const reports = await get<{ reports: AdminReport[] }>('/api/admin/reports');
    const report = reports.reports.find((r) => r.reported.profile_id === target.profileId);
    if (!report) throw new Error('the report is not in the queue');
    return { reporter, target, report };
  }

  it('lists a report with the reporter, every photo (held too) and the chat, and dismisses it once', async () => {
    const { reporter, target, report } = await chattedAndReported();
    expect(report).toMatchObject({
      reason: 'fake',
      comment: 'просит деньги',
      reporter: { profile_id: reporter.profileId, name: 'Жалобщик' },
      reported: { name: 'Подозрительная', banned: false },
    });
    expect(report.reported.photos.map((p) => p.moderation)).toEqual(['clear', 'held']);
    expect(report.reported.photos[1]?.screen_score).toBeCloseTo(0.91);
    expect(report.messages).toEqual([
      expect.objectContaining({ from_profile_id: target.profileId, content: 'переведи мне денег' }),
    ]);
    // The console's answers name no e-mail or Telegram id of the people in a report.
    expect(JSON.stringify(report)).not.toMatch(/@example\.com/);

    const resolve = (body: unknown) => admin.browser.post(`/api/admin/reports/${report.id}/resolve`, body);
    expect((await resolve({ action: 'delete' })).status).toBe(400);
    expect((await admin.browser.post('/api/admin/reports/999999999/resolve', { action: 'dismiss' })).status).toBe(404);
    expect((await admin.browser.post('/api/admin/reports/abc/resolve', { action: 'dismiss' })).status).toBe(400);
    expect(await auditOf(target.userId)).toEqual([]);
    const [first, second] = await Promise.all([
      resolve({ action: 'dismiss', reason: 'не подтвердилось' }),
      resolve({ action: 'dismiss' }),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    expect(await auditOf(target.userId)).toEqual([
      { admin: `email:${adminEmail.toLowerCase()}`, action: 'report_dismiss', reason: expect.any(String) as string },
    ]);
    const after = await get<{ reports: AdminReport[] }>('/api/admin/reports');
    expect(after.reports.some((r) => r.id === report.id)).toBe(false);
  });

  it('holds a reported profile out of search while the report stays open', async () => {
    const { target, report } = await chattedAndReported('spam');
    const hold = () => admin.browser.post(`/api/admin/reports/${report.id}/resolve`, { action: 'hold' });
    expect((await hold()).status).toBe(200);
    expect((await hold()).status).toBe(409);
    const row = await app.database.db
      .selectFrom('profiles')
      .select('held_at')
      .where('id', '=', target.profileId)
      .executeTakeFirstOrThrow();
    expect(row.held_at).not.toBeNull();
    const queue = await get<{ reports: AdminReport[] }>('/api/admin/reports');
    expect(queue.reports.find((r) => r.id === report.id)?.reported.held).toBe(true);
  });

  it('bans from a report: the person’s sessions end at once and their open event stream closes', async () => {
    const { target, report } = await chattedAndReported('offensive');
    const stream = await EventStreamClient.open(`${app.url}/api/events`, { Cookie: target.browser.cookieHeader() });
    const res = await admin.browser.post(`/api/admin/reports/${report.id}/resolve`, {
      action: 'ban',
      reason: 'мошенник',
    });
    expect(res.status).toBe(200);
    expect((await json<{ authorized: boolean }>(await target.browser.get('/api/current_user'))).authorized).toBe(false);
    // Ended by the server (a session-end notice), not by this client: the banned app stops listening at once.
    await stream.ended;
    expect(await auditOf(target.userId)).toEqual([
      { admin: `email:${adminEmail.toLowerCase()}`, action: 'ban', reason: 'мошенник' },
    ]);
    // From the lookup: unban, then ban again (conditional: a second ban changes nothing).
    const ban = () => admin.browser.post(`/api/admin/people/${target.userId}/ban`, {});
    expect(await json(await admin.browser.post(`/api/admin/people/${target.userId}/unban`, {}))).toEqual({
      changed: true,
    });
    expect(await json(await ban())).toEqual({ changed: true });
    expect(await json(await ban())).toEqual({ changed: false });
    expect((await admin.browser.post('/api/admin/people/999999999/ban', {})).status).toBe(404);
    expect((await auditOf(target.userId)).map((a) => a.action)).toEqual(['ban', 'unban', 'ban']);
  });

  /** A pending check; its selfie stored as uploads are (the photo and its thumbnail). */
  async function pendingVerification(person: Person, selfie: string | null) {
    if (selfie) {
      await writeFile(path.join(uploads, selfie), Buffer.from([0xff, 0xd8, 0xff, 0xd9]));
      await writeFile(
        path.join(uploads, selfie.replace(/\.jpg$/, '.thumb.jpg')),
        Buffer.from([0xff, 0xd8, 0xff, 0xd9]),
      );
    }
    const row = await app.database.db
      .insertInto('photo_verifications')
      .values({
        profile_id: person.profileId,
        status: 'pending',
        pose_id: 'turn_left',
        selfie_name: selfie,
        similarity: 0.68,
        pose_ok: 1,
        faces: 1,
        reason: 'review',
        created_at: app.clock.now().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  it('shows a pending selfie to admins only, approves it once, and deletes the selfie but keeps the decision', async () => {
    const person = await createPerson(app, { photos: 2 });
    const selfie = photoName();
    const id = await pendingVerification(person, selfie);
    const queue = await get<{ verifications: AdminVerification[] }>('/api/admin/verifications');
    const item = queue.verifications.find((v) => v.id === id);
    expect(item).toMatchObject({
      similarity: 0.68,
      pose_ok: true,
      faces: 1,
      selfie_url: `/api/admin/verifications/${id}/selfie`,
      person: { profile_id: person.profileId, verified: false },
    });
    expect(item?.person.photos).toHaveLength(2);
    const image = await admin.browser.get(item?.selfie_url ?? '');
    expect(image.status).toBe(200);
    expect(image.headers.get('cache-control')).toBe('private, no-store');
    expect(Buffer.from(await image.arrayBuffer())).toEqual(Buffer.from([0xff, 0xd8, 0xff, 0xd9]));
    expect((await person.browser.get(item?.selfie_url ?? '')).status).toBe(404);

    const approve = () => admin.browser.post(`/api/admin/verifications/${id}/resolve`, { action: 'approve' });
    const [a, b] = await Promise.all([approve(), approve()]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const row = await app.database.db
      .selectFrom('photo_verifications')
      .select(['status', 'selfie_name', 'decided_by', 'decided_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      status: 'verified',
      selfie_name: null,
      decided_by: `email:${adminEmail.toLowerCase()}`,
    });
    expect(row.decided_at).not.toBeNull();
    expect(await readdir(uploads)).not.toContain(selfie);
    expect(await readdir(uploads)).not.toContain(selfie.replace(/\.jpg$/, '.thumb.jpg'));
    expect((await admin.browser.get(`/api/admin/verifications/${id}/selfie`)).status).toBe(404);
    const profile = await app.database.db
      .selectFrom('profiles')
      .select(['verified', 'search_changed_at'])
      .where('id', '=', person.profileId)
      .executeTakeFirstOrThrow();
    expect(profile.verified).toBe(1);
    expect(profile.search_changed_at).not.toBeNull();
    // Looking at the face is in the log (the member's refused try is not: it never reached the console).
    expect((await auditOf(person.userId)).map((x) => x.action)).toEqual(['view_selfie', 'verification_approve']);
  });

  it('rejects a pending selfie with the moderator’s reason, leaving the profile unverified', async () => {
    const person = await createPerson(app);
    const selfie = photoName();
    const id = await pendingVerification(person, selfie);
    expect((await admin.browser.post(`/api/admin/verifications/${id}/resolve`, { action: 'maybe' })).status).toBe(400);
    expect((await admin.browser.post('/api/admin/verifications/999999999/resolve', { action: 'reject' })).status).toBe(
      404,
    );
    expect((await admin.browser.post(`/api/admin/verifications/${id}/resolve`, { action: 'reject' })).status).toBe(200);
    const row = await app.database.db
      .selectFrom('photo_verifications')
      .select(['status', 'reason', 'selfie_name'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'rejected', reason: 'moderator', selfie_name: null });
    expect(await readdir(uploads)).not.toContain(selfie);
    expect(await readdir(uploads)).not.toContain(selfie.replace(/\.jpg$/, '.thumb.jpg'));
    const profile = await app.database.db
      .selectFrom('profiles')
      .select('verified')
      .where('id', '=', person.profileId)
      .executeTakeFirstOrThrow();
    expect(profile.verified).toBe(0);
  });

  it('removes a pending selfie’s files with the profile, and with the account', async () => {
    const withProfile = await createPerson(app);
    const account = await createPerson(app);
    const [a, b] = [photoName(), photoName()];
    await pendingVerification(withProfile, a);
    await pendingVerification(account, b);
    const stored = (name: string) => [name, name.replace(/\.jpg$/, '.thumb.jpg')];
    expect(await readdir(uploads)).toEqual(expect.arrayContaining([...stored(a), ...stored(b)]));
    expect((await withProfile.browser.post('/api/delete_profile', {})).status).toBe(200);
    expect((await account.browser.post('/api/delete_account', {})).status).toBe(200);
    const left = await readdir(uploads);
    for (const name of [...stored(a), ...stored(b)]) expect(left).not.toContain(name);
  });

  it('lists held photos with owner and score; approve clears one, remove deletes its row and files', async () => {
    const person = await createPerson(app, { photos: 1 });
    const now = app.clock.now().toISOString();
    const insertHeld = async (score: number) => {
      const name = photoName();
      const blur = photoName();
      for (const file of [name, name.replace(/\.jpg$/, '.thumb.jpg'), blur])
        await writeFile(path.join(uploads, file), Buffer.from([0xff, 0xd8, 0xff, 0xd9]));
      const row = await app.database.db
        .insertInto('photos')
        .values({
          profile_id: person.profileId,
          file_name: name,
          blur_name: blur,
          position: 5,
          created_at: now,
          moderation: 'held',
          screen_score: score,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { id: row.id, name, blur };
    };
    const kept = await insertHeld(0.7);
    const removed = await insertHeld(0.95);
    const queue = await get<{ photos: AdminHeldPhoto[] }>('/api/admin/photos');
    const mine = queue.photos.filter((p) => p.owner.user_id === person.userId);
    expect(mine.map((p) => p.id)).toEqual([removed.id, kept.id]);
    expect(mine[0]?.screen_score).toBeCloseTo(0.95);

    const resolve = (id: number, action: string) => admin.browser.post(`/api/admin/photos/${id}/resolve`, { action });
    expect((await resolve(kept.id, 'approve')).status).toBe(200);
    expect((await resolve(kept.id, 'approve')).status).toBe(409);
    expect((await resolve(removed.id, 'remove')).status).toBe(200);
    expect((await resolve(removed.id, 'remove')).status).toBe(404);
    const rows = await app.database.db
      .selectFrom('photos')
      .select(['id', 'moderation'])
      .where('id', 'in', [kept.id, removed.id])
      .execute();
    expect(rows).toEqual([{ id: kept.id, moderation: 'clear' }]);
    const files = await readdir(uploads);
    expect(files).toContain(kept.name);
    expect(files).not.toContain(removed.name);
    expect(files).not.toContain(removed.blur);
    expect((await auditOf(person.userId)).map((a) => a.action)).toEqual(['photo_approve', 'photo_remove']);
  });

  it('looks a person up by e-mail, Telegram id or profile id, with their history, and grants premium', async () => {
    const person = await createPerson(app, { name: 'Искомая' });
    const telegramId = '7200000555';
    await app.database.db
      .updateTable('users')
      .set({ telegram_id: telegramId })
      .where('id', '=', person.userId)
      .execute();
    const account = await app.database.db
      .selectFrom('users')
      .select('email')
      .where('id', '=', person.userId)
      .executeTakeFirstOrThrow();
    for (const q of [account.email ?? '', account.email?.toUpperCase() ?? '', telegramId, String(person.profileId)]) {
      const found = await get<{ people: AdminPerson[] }>(`/api/admin/people?q=${encodeURIComponent(q)}`);
      expect(
        found.people.map((p) => p.user_id),
        q,
      ).toContain(person.userId);
    }
    expect((await admin.browser.get('/api/admin/people?q=')).status).toBe(400);
    // Each search is in the log: who looked for what and whom it found (not in the person's own history).
    const lookups = await app.database.db
      .selectFrom('admin_actions')
      .select(['admin', 'details', 'target_user_id'])
      .where('action', '=', 'lookup')
      .orderBy('id', 'desc')
      .limit(4)
      .execute();
    expect(lookups.map((l) => JSON.parse(l.details) as unknown).reverse()).toEqual(
      [account.email ?? '', account.email?.toUpperCase() ?? '', telegramId, String(person.profileId)].map((q) => ({
        query: q,
        user_ids: expect.arrayContaining([person.userId]) as unknown,
      })),
    );
    expect(lookups.every((l) => l.admin === `email:${adminEmail.toLowerCase()}` && l.target_user_id === null)).toBe(
      true,
    );
    const granted = await admin.browser.post(`/api/admin/people/${person.userId}/grant`, {
      days: 30,
      reason: 'компенсация',
    });
    expect(granted.status).toBe(200);
    expect((await admin.browser.post(`/api/admin/people/${person.userId}/grant`, { days: 0 })).status).toBe(400);
    const [found] = (await get<{ people: AdminPerson[] }>(`/api/admin/people?q=${telegramId}`)).people;
    expect(found).toMatchObject({
      telegram_id: telegramId,
      sessions: 1,
      card: { name: 'Искомая' },
      actions: [expect.objectContaining({ action: 'grant_premium', reason: 'компенсация' })],
    });
    expect(found?.premium_until).not.toBeNull();
  });

  it('pages the audit log newest first and exports all of it as CSV', async () => {
    const person = await createPerson(app);
    for (let i = 0; i < 3; i++)
      expect(
        (await admin.browser.post(`/api/admin/people/${person.userId}/grant`, { days: 1, reason: `r${i}, "q"` }))
          .status,
      ).toBe(200);
    const first = await get<AdminAuditPage>('/api/admin/audit?limit=2');
    expect(first.entries).toHaveLength(2);
    expect(first.entries[0]?.reason).toBe('r2, "q"');
    expect(first.next_before).toBe(first.entries[1]?.id);
    const second = await get<AdminAuditPage>(`/api/admin/audit?limit=2&before=${first.next_before ?? 0}`);
    expect(second.entries[0]?.reason).toBe('r0, "q"');
    expect((await admin.browser.get('/api/admin/audit?limit=0')).status).toBe(400);
    for (const url of ['/api/admin/audit.csv', '/api/admin/audit?format=csv']) {
      const csv = await admin.browser.get(url);
      expect(csv.status).toBe(200);
      expect(csv.headers.get('content-type')).toContain('text/csv');
      const lines = (await csv.text()).trim().split('\r\n');
      expect(lines[0]).toBe('id,created_at,admin,action,target_user_id,target_profile_id,reason,details');
      expect(lines.at(-1)).toContain(`grant_premium,${person.userId},,"r2, ""q"""`);
    }
    // Longer than a page of the export (500 rows): every row once, oldest first, across the page joins.
    await app.database.db
      .insertInto('admin_actions')
      .values(
        Array.from({ length: 1100 }, (_, i) => ({
          admin: 'cli' as const,
          action: 'grant_premium',
          target_user_id: person.userId,
          target_profile_id: null,
          reason: `bulk ${i}`,
          details: '{}',
          created_at: app.clock.now().toISOString(),
        })),
      )
      .execute();
    const total = await app.database.db
      .selectFrom('admin_actions')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    const lines = (await (await admin.browser.get('/api/admin/audit.csv')).text()).trim().split('\r\n').slice(1);
    expect(lines).toHaveLength(Number(total.n));
    const ids = lines.map((l) => Number(l.split(',')[0]));
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    expect(lines.at(-1)).toContain('bulk 1099');
  });

  it('counts sign-ups, active people, matches, messages and payments per day for 7, 30 or 90 days', async () => {
    const a = await createPerson(app, { gender: 'Male' });
    const b = await createPerson(app, { gender: 'Female' });
    expect((await a.browser.post('/api/like', { profile_id: b.profileId })).status).toBe(200);
    expect((await b.browser.post('/api/like', { profile_id: a.profileId })).status).toBe(200);
    for (const days of [7, 30, 90]) {
      const stats = await get<AdminStats>(`/api/admin/stats?days=${days}`);
      expect(stats.series).toHaveLength(days);
      const today = stats.series.at(-1);
      expect(today?.day).toBe(app.clock.now().toISOString().slice(0, 10));
      expect(today?.sign_ups).toBeGreaterThanOrEqual(2);
      expect(today?.active).toBeGreaterThanOrEqual(2);
      expect(today?.matches).toBeGreaterThanOrEqual(1);
    }
    expect((await admin.browser.get('/api/admin/stats?days=8')).status).toBe(400);
  });
});
