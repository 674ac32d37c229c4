import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registrationsPerIpPerDay, registrationsPerIpPerHour } from '../rateLimits/index.ts';
import { testPassword, uniqueEmail } from '../../test/accounts.ts';
import { Browser, json } from '../../test/browser.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';

/**
 * Sign-ups per client address (rateLimits/clientLimits.ts): an hour's and a day's, held under parallel
 * requests. The app trusts one proxy, so the test speaks from client addresses of its own.
 */
describe.each(testDialects())('registrations per client address on %s', (dialect) => {
  let app: TestApp;
  beforeEach(async () => {
    app = await createTestApp(dialect, { trustedProxyHops: 1 });
  });
  afterEach(async () => {
    await app.close();
  });

  const from = (ip: string) => ({ headers: { 'X-Forwarded-For': ip } });
  /** `count` sign-ups from `ip` at once, each from a fresh tab with a fresh address. */
  async function burst(ip: string, count: number): Promise<Response[]> {
    const tabs = Array.from({ length: count }, () => new Browser(app.url));
    await Promise.all(tabs.map((tab) => tab.csrfToken()));
    return Promise.all(
      tabs.map((tab) => tab.post('/api/register', { email: uniqueEmail('burst'), password: testPassword }, from(ip))),
    );
  }
  const statuses = (answers: Response[]) => answers.map((r) => r.status);
  const count = (list: number[], status: number) => list.filter((s) => s === status).length;
  const users = async () =>
    Number(
      (
        await app.database.db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it(`makes exactly ${registrationsPerIpPerHour} accounts an hour from one address when 25 arrive at once, and tells nothing of taken addresses past it`, async () => {
    const taken = uniqueEmail('taken');
    expect(
      (await new Browser(app.url).post('/api/register', { email: taken, password: testPassword }, from('203.0.113.1')))
        .status,
    ).toBe(201);
    const answers = statuses(await burst('198.51.100.20', 25));
    expect(count(answers, 201)).toBe(registrationsPerIpPerHour);
    expect(count(answers, 429)).toBe(25 - registrationsPerIpPerHour);
    expect(await users()).toBe(1 + registrationsPerIpPerHour);
    // Past the cap, a registered address gets the same refusal as any other: no email_taken.
    const probe = await new Browser(app.url).post(
      '/api/register',
      { email: taken, password: testPassword },
      from('198.51.100.20'),
    );
    expect(probe.status).toBe(429);
    expect(await json(probe)).toMatchObject({ code: 'too_many_registrations' });
    expect(Number(probe.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another address is not affected.
    expect(
      (
        await new Browser(app.url).post(
          '/api/register',
          { email: uniqueEmail(), password: testPassword },
          from('198.51.100.21'),
        )
      ).status,
    ).toBe(201);
  });

  it(`makes at most ${registrationsPerIpPerDay} accounts a day from one address`, async () => {
    // Just past the start of a UTC day, so the day's window holds every hour below.
    const now = app.clock.now().getTime() / 1000;
    app.clock.advance(86_400 - (now % 86_400) + 1);
    let made = 0;
    for (let round = 0; round < 3; round++) {
      made += count(statuses(await burst('198.51.100.30', registrationsPerIpPerHour)), 201);
      // Two hours on, the sliding hour holds none of them.
      app.clock.advance(7200);
    }
    expect(made).toBe(registrationsPerIpPerDay);
  });
});
