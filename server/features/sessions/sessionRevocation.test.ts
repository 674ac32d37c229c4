import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dialect } from '../../../db/client.ts';
import type { UserId } from '../../../db/schema.ts';
import { createLogger } from '../../logger.ts';
import { Browser } from '../../test/browser.ts';
import { signUpVerified, testPassword } from '../../test/accounts.ts';
import { GoogleStandIn, testGoogleClientId } from '../../test/googleStandIn.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { createTestDatabase, testDialects, type TestDatabase } from '../../test/testDatabase.ts';
import { AdminService } from '../admin/index.ts';
import { type EventBus, InProcessEventBus, noticeChannel, PostgresEventBus } from '../events/index.ts';

/**
 * Two server instances on one database, as two processes of a deployment: each keeps its own session cache
 * (PostgreSQL, with its own LISTEN connection). A session ended through one is refused by the other's next
 * request that may write, at once (those read the session row), and by its GETs once the change notice has
 * arrived (waited for: another process's listener may lag on a loaded machine). The instance that made
 * the change refuses it at once, GETs included. On SQLite there is no session cache, and the same holds.
 * PostgreSQL runs twice: once more with a 60-character schema, whose notice channels must be shortened.
 */
interface Setup {
  dialect: Dialect;
  schemaLength?: number;
  name: string;
}
const setups = testDialects().flatMap<Setup>((dialect) =>
  dialect === 'postgres'
    ? [
        { dialect, name: 'postgres' },
        { dialect, schemaLength: 60, name: 'postgres, a 60-character schema' },
      ]
    : [{ dialect, name: dialect }],
);

for (const { dialect, schemaLength, name } of setups) {
  describe(`a session ended through one server instance, on the other (${name})`, () => {
    const google = new GoogleStandIn();
    let database: TestDatabase;
    let busA: EventBus;
    let busB: EventBus;
    let a: TestApp;
    let b: TestApp;

    const startBus = async (): Promise<EventBus> =>
      dialect === 'postgres'
        ? PostgresEventBus.start(database.url ?? '', database.schema ?? 'public', createLogger('silent'))
        : new InProcessEventBus();

    beforeAll(async () => {
      const jwksUrl = await google.start();
      database = await createTestDatabase(dialect, schemaLength ? { schemaLength } : {});
      if (schemaLength) expect(database.schema).toHaveLength(schemaLength);
      [busA, busB] = [await startBus(), await startBus()];
      a = await createTestApp(dialect, { database, eventBus: busA, google: { clientId: testGoogleClientId, jwksUrl } });
      b = await createTestApp(dialect, { database, eventBus: busB });
    });
    afterAll(async () => {
      await a.close();
      await b.close();
      await database.drop();
      await google.stop();
    });

    /** A browser on `app` holding the session of `browser`. */
    const copyOn = (app: TestApp, browser: Browser): Browser => {
      const copy = new Browser(app.url);
      copy.setCookie('iskra_session', browser.cookie('iskra_session') ?? '');
      return copy;
    };
    const signedIn = async (browser: Browser): Promise<boolean> => {
      const res = await browser.get('/api/current_user');
      expect(res.status).toBe(200);
      return ((await res.json()) as { authorized: boolean }).authorized;
    };
    /** A request that may write, as the session's holder: 200 while the session lives, 401 once it ended. */
    const write = async (browser: Browser): Promise<number> =>
      (await browser.post('/api/language', { language: 'en' })).status;
    /** A GET on the other instance sees the change once its notice arrives; nothing settles it there. */
    const refusedOnceHeard = (browser: Browser) =>
      expect.poll(() => signedIn(browser), { timeout: 10_000, interval: 20 }).toBe(false);

    /** An account signed in on A, the same session used on B, and a second session of it signed in on B. */
    const accountOnBoth = async () => {
      const me = await signUpVerified(a);
      const mineOnB = copyOn(b, me.browser);
      const second = new Browser(b.url);
      expect((await second.post('/api/login', { email: me.email, password: testPassword })).status).toBe(200);
      // The CSRF tokens fetched now, so each write below is one request.
      await Promise.all([mineOnB.csrfToken(), second.csrfToken()]);
      // Twice each: the first read fills B's cache, the second is answered from it.
      for (let i = 0; i < 2; i++) {
        expect(await signedIn(mineOnB)).toBe(true);
        expect(await signedIn(second)).toBe(true);
      }
      return { ...me, mineOnB, second };
    };

    it('refuses a signed-out session on the other instance: a write at once, a read once the notice is in', async () => {
      const { browser, mineOnB, second } = await accountOnBoth();
      // A like checks its session in its own statement on PostgreSQL (swipes/likeSession.test.ts): live, it is
      // answered (this account has no profile yet), and refused at once once the session ended elsewhere.
      const like = async () => (await mineOnB.post('/api/like', { profile_id: 1 })).status;
      expect(await like()).toBe(409);
      expect((await browser.post('/api/logout')).status).toBe(200);
      expect(await like()).toBe(401);
      expect(await write(mineOnB)).toBe(401);
      await refusedOnceHeard(mineOnB);
      expect((await mineOnB.get('/api/account')).status).toBe(401);
      expect(await signedIn(second)).toBe(true);
      expect(await write(second)).toBe(200);
    });

    it('refuses the other sessions ended with "sign out everywhere else" on the other instance, and keeps this one', async () => {
      const { browser, mineOnB, second } = await accountOnBoth();
      expect((await browser.post('/api/account/sessions/end_others')).status).toBe(200);
      expect(await write(second)).toBe(401);
      await refusedOnceHeard(second);
      expect(await signedIn(mineOnB)).toBe(true);
      expect(await write(mineOnB)).toBe(200);
    });

    it('refuses the other sessions on the other instance right after a password change', async () => {
      const { browser, mineOnB, second } = await accountOnBoth();
      expect(
        (await browser.post('/api/account/password', { current_password: testPassword, password: 'AnotherPassw0rd!' }))
          .status,
      ).toBe(200);
      expect(await write(second)).toBe(401);
      await refusedOnceHeard(second);
      expect(await signedIn(mineOnB)).toBe(true);
    });

    it('refuses every session of a banned account on the other instance once the ban returns', async () => {
      const { userId, mineOnB, second } = await accountOnBoth();
      // As the bot's /ban runs it: in the process of instance A, with A's bus.
      expect(await new AdminService(database.db, a.clock, {}, busA).ban(userId, 'cli')).toBe(true);
      expect(await write(mineOnB)).toBe(401);
      expect(await write(second)).toBe(401);
      await refusedOnceHeard(mineOnB);
      await refusedOnceHeard(second);
    });

    it('refuses every session of a deleted account on the other instance', async () => {
      const { browser, mineOnB, second } = await accountOnBoth();
      expect((await browser.post('/api/delete_account', { password: testPassword })).status).toBe(200);
      expect(await write(second)).toBe(401);
      expect(await write(mineOnB)).toBe(401);
      await refusedOnceHeard(second);
      await refusedOnceHeard(mineOnB);
    });

    it('ends the sessions of an e-mail account that a Google sign-in joins: on its own instance at once, on the other too', async () => {
      const { browser, email, userId, mineOnB } = await accountOnBoth();
      // Cached on A as well, where the (unauthenticated) Google sign-in comes in.
      for (let i = 0; i < 2; i++) expect(await signedIn(browser)).toBe(true);
      const viaGoogle = new Browser(a.url);
      const token = await google.idToken(
        { sub: `sub-${userId}-${dialect}`, email, email_verified: true },
        a.clock.now(),
      );
      const res = await viaGoogle.post('/api/googlelogin', { id_token: token });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { user_id: UserId }).user_id).toBe(userId);
      expect(await signedIn(browser)).toBe(false);
      expect(await write(mineOnB)).toBe(401);
      await refusedOnceHeard(mineOnB);
      expect(await signedIn(viaGoogle)).toBe(true);
    });

    it.runIf(dialect === 'postgres')(
      'answers a warm session from its cache, and drops it on the change notice',
      async () => {
        const { userId, second } = await accountOnBoth();
        // The row deleted with triggers off: no notice, so B's GETs still trust its cached copy (the cache is
        // real), while a write, which reads the row, is refused...
        await database.db.transaction().execute(async (trx) => {
          await sql`set local session_replication_role = replica`.execute(trx);
          await trx.deleteFrom('sessions').where('user_id', '=', userId).execute();
        });
        expect(await signedIn(second)).toBe(true);
        // A GET that sends mail reads the row as a write does.
        expect((await second.get('/api/send_verification_code')).status).toBe(401);
        expect(await write(second)).toBe(401);
        // ...until the notice the triggers would have sent arrives (waited for: nothing here settles it).
        await sql`select pg_notify(${noticeChannel('sessions', database.schema ?? 'public')}, ${String(userId)})`.execute(
          database.db,
        );
        await refusedOnceHeard(second);
      },
    );

    it.runIf(dialect === 'postgres')('carries live events from one instance to the other', async () => {
      const { userId } = await signUpVerified(a);
      const heard = new Promise<void>((resolve) => {
        const stop = busB.subscribe(userId, () => {
          stop();
          resolve();
        });
      });
      await busA.publish([userId]);
      await heard;
    });
  });
}
