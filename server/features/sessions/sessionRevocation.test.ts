import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../logger.ts';
import { Browser } from '../../test/browser.ts';
import { signUpVerified, testPassword } from '../../test/accounts.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { createTestDatabase, testDialects, type TestDatabase } from '../../test/testDatabase.ts';
import { AdminService } from '../admin/adminService.ts';
import { InProcessEventBus, PostgresEventBus, type EventBus } from '../events/eventBus.ts';

/**
 * Two server instances on one database, as two processes of a deployment: each keeps its own session cache
 * (PostgreSQL, with its own LISTEN connection), and a session ended through one must be refused by the
 * other on the very next request. On SQLite there is no session cache, and the same holds.
 */
for (const dialect of testDialects()) {
  describe(`a session ended through one server instance, on the other at once (${dialect})`, () => {
    let database: TestDatabase;
    let busA: EventBus;
    let a: TestApp;
    let b: TestApp;

    const startBus = async (): Promise<EventBus> =>
      dialect === 'postgres'
        ? PostgresEventBus.start(process.env.TEST_DATABASE_URL ?? '', database.schema ?? 'public', createLogger('silent'))
        : new InProcessEventBus();

    beforeAll(async () => {
      database = await createTestDatabase(dialect);
      busA = await startBus();
      a = await createTestApp(dialect, { database, eventBus: busA });
      b = await createTestApp(dialect, { database, eventBus: await startBus() });
    });
    afterAll(async () => {
      await a.close();
      await b.close();
      await database.drop();
    });

    /** A browser on instance B holding the session of `browser`. */
    const onB = (browser: Browser): Browser => {
      const copy = new Browser(b.url);
      copy.setCookie('iskra_session', browser.cookie('iskra_session') ?? '');
      return copy;
    };
    const signedIn = async (browser: Browser): Promise<boolean> => {
      const res = await browser.get('/api/current_user');
      expect(res.status).toBe(200);
      return ((await res.json()) as { authorized: boolean }).authorized;
    };
    /** An account signed in on A, the same session used on B, and a second session of it signed in on B. */
    const accountOnBoth = async () => {
      const me = await signUpVerified(a);
      const mineOnB = onB(me.browser);
      const second = new Browser(b.url);
      expect((await second.post('/api/login', { email: me.email, password: testPassword })).status).toBe(200);
      // Twice each: the first read fills B's cache, the second is answered from it.
      for (let i = 0; i < 2; i++) {
        expect(await signedIn(mineOnB)).toBe(true);
        expect(await signedIn(second)).toBe(true);
      }
      return { ...me, mineOnB, second };
    };

    it('refuses a signed-out session on the other instance on the next request', async () => {
      const { browser, mineOnB, second } = await accountOnBoth();
      expect((await browser.post('/api/logout')).status).toBe(200);
      expect(await signedIn(mineOnB)).toBe(false);
      expect((await mineOnB.get('/api/account')).status).toBe(401);
      expect(await signedIn(second)).toBe(true);
    });

    it('refuses the other sessions ended with "sign out everywhere else" on the other instance at once, and keeps this one', async () => {
      const { browser, mineOnB, second } = await accountOnBoth();
      expect((await browser.post('/api/account/sessions/end_others')).status).toBe(200);
      expect(await signedIn(second)).toBe(false);
      expect(await signedIn(mineOnB)).toBe(true);
    });

    it('refuses the other sessions on the other instance right after a password change', async () => {
      const { browser, mineOnB, second } = await accountOnBoth();
      expect((await browser.post('/api/account/password', { current_password: testPassword, password: 'AnotherPassw0rd!' })).status).toBe(200);
      expect(await signedIn(second)).toBe(false);
      expect(await signedIn(mineOnB)).toBe(true);
    });

    it('refuses every session of a banned account on the other instance once the ban returns', async () => {
      const { userId, mineOnB, second } = await accountOnBoth();
      // As the bot's /ban runs it: in the process of instance A, with A's bus.
      expect(await new AdminService(database.db, a.clock, {}, busA).ban(userId)).toBe(true);
      expect(await signedIn(mineOnB)).toBe(false);
      expect(await signedIn(second)).toBe(false);
    });

    it('refuses every session of a deleted account on the other instance at once', async () => {
      const { browser, mineOnB, second } = await accountOnBoth();
      expect((await browser.post('/api/delete_account', { password: testPassword })).status).toBe(200);
      expect(await signedIn(second)).toBe(false);
      expect(await signedIn(mineOnB)).toBe(false);
    });

    it.runIf(dialect === 'postgres')('answers a warm session from its cache, and drops it on the change notice', async () => {
      const { userId, second } = await accountOnBoth();
      // The row deleted with triggers off: no notice, so B still trusts its cached copy (the cache is real)...
      await database.db.transaction().execute(async (trx) => {
        await sql`set local session_replication_role = replica`.execute(trx);
        await trx.deleteFrom('sessions').where('user_id', '=', userId).execute();
      });
      expect(await signedIn(second)).toBe(true);
      // ...until the notice the triggers would have sent arrives (waited for: nothing here settles it).
      await sql`select pg_notify(${`iskra_sessions_${(database.schema ?? '').replace(/\W/g, '_')}`}, ${String(userId)})`.execute(database.db);
      await expect.poll(() => signedIn(second), { timeout: 10_000, interval: 20 }).toBe(false);
    });
  });
}
