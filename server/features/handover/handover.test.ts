import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CurrentUserResponse } from '../../contract/accounts.ts';
import { reauthWindowMinutes } from '../../contract/dataRights.ts';
import { handoverLifetimeSeconds, type HandoverResponse } from '../../contract/handover.ts';
import { Browser, json } from '../../test/browser.ts';
import { createPerson } from '../../test/people.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';

describe.each(testDialects())('handing a session over to another browser by a one-time code on %s', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(dialect);
  });
  afterAll(async () => {
    await app.close();
  });

  const code = async (res: Response) => [res.status, (await json<{ code: string }>(res)).code];
  const currentUser = async (browser: Browser) => json<CurrentUserResponse>(await browser.get('/api/current_user'));
  /** A code made by `browser`'s session, read from the link as the token page reads it (the fragment). */
  async function issue(browser: Browser): Promise<string> {
    const res = await browser.post('/api/session/handover');
    expect(res.status).toBe(200);
    const { url } = await json<HandoverResponse>(res);
    const link = new URL(url);
    expect(`${link.origin}${link.pathname}`).toBe('http://localhost:8080/token');
    expect(link.search).toBe('');
    return new URLSearchParams(link.hash.slice(1)).get('code') ?? '';
  }

  it('shows whose account it is without using the code, then signs the other browser in once; a replay is refused', async () => {
    const person = await createPerson(app, { name: 'Лада' });
    const handoverCode = await issue(person.browser);
    expect(handoverCode).toMatch(/^[\w-]{43}$/);
    // Only its hash is kept.
    const rows = await app.database.db.selectFrom('session_handovers').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(handoverCode);

    const other = new Browser(app.url);
    const preview = await other.post('/api/session/handover/preview', { code: handoverCode });
    expect(await json(preview)).toEqual({ name: 'Лада' });
    // The question alone signs nobody in.
    expect(other.cookie('iskra_session')).toBeUndefined();
    expect((await currentUser(other)).authorized).toBe(false);

    const redeemed = await other.post('/api/session/handover/redeem', { code: handoverCode });
    expect(redeemed.status).toBe(200);
    const me = await currentUser(other);
    expect([me.authorized, me.user_id]).toEqual([true, person.userId]);

    const thief = new Browser(app.url);
    expect(await code(await thief.post('/api/session/handover/redeem', { code: handoverCode }))).toEqual([
      404,
      'handover_invalid',
    ]);
    expect(await code(await thief.post('/api/session/handover/preview', { code: handoverCode }))).toEqual([
      404,
      'handover_invalid',
    ]);
    expect(thief.cookie('iskra_session')).toBeUndefined();
    expect((await currentUser(thief)).authorized).toBe(false);
  });

  it('refuses a forged or unknown code and stores nothing, and malformed input with 400', async () => {
    const visitor = new Browser(app.url);
    const before = await app.database.db.selectFrom('sessions').select('id_hash').execute();
    const forged = randomBytes(32).toString('base64url');
    expect(await code(await visitor.post('/api/session/handover/redeem', { code: forged }))).toEqual([
      404,
      'handover_invalid',
    ]);
    expect(await code(await visitor.post('/api/session/handover/preview', { code: forged }))).toEqual([
      404,
      'handover_invalid',
    ]);
    expect(await code(await visitor.post('/api/session/handover/redeem', { code: 'not a code' }))).toEqual([
      400,
      'invalid_input',
    ]);
    expect(await code(await visitor.post('/api/session/handover/redeem', { code: 'x'.repeat(43), extra: 1 }))).toEqual([
      400,
      'invalid_input',
    ]);
    expect(visitor.cookie('iskra_session')).toBeUndefined();
    const after = await app.database.db.selectFrom('sessions').select('id_hash').execute();
    expect(after.length).toBe(before.length);
  });

  it('needs the CSRF token to redeem, and a signed-in session to issue', async () => {
    const person = await createPerson(app);
    const handoverCode = await issue(person.browser);
    const other = new Browser(app.url);
    expect((await other.post('/api/session/handover/redeem', { code: handoverCode }, { csrf: false })).status).toBe(
      403,
    );
    expect(other.cookie('iskra_session')).toBeUndefined();
    // Still unused: the refused request used nothing up.
    expect((await other.post('/api/session/handover/redeem', { code: handoverCode })).status).toBe(200);
    expect((await new Browser(app.url).post('/api/session/handover')).status).toBe(401);
  });

  it('ends with the session it hands over, and after five minutes', async () => {
    const person = await createPerson(app);
    const ended = await issue(person.browser);
    expect((await person.browser.post('/api/logout')).status).toBe(200);
    expect(await code(await new Browser(app.url).post('/api/session/handover/redeem', { code: ended }))).toEqual([
      404,
      'handover_invalid',
    ]);

    const second = await createPerson(app);
    const late = await issue(second.browser);
    app.clock.advance(handoverLifetimeSeconds + 1);
    expect(await code(await new Browser(app.url).post('/api/session/handover/redeem', { code: late }))).toEqual([
      404,
      'handover_invalid',
    ]);
  });

  it('is no new sign-in: the handed-over session keeps the first sign-in time, so it cannot pass re-authentication', async () => {
    const person = await createPerson(app);
    await app.database.db.updateTable('users').set({ password_hash: null }).where('id', '=', person.userId).execute();
    app.clock.advance(reauthWindowMinutes * 60 + 1);
    const handoverCode = await issue(person.browser);
    const other = new Browser(app.url);
    expect((await other.post('/api/session/handover/redeem', { code: handoverCode })).status).toBe(200);
    expect(await code(await other.post('/api/account/password/add', { password: 'Planted123!' }))).toEqual([
      403,
      'reauth_required',
    ]);
  });
});
