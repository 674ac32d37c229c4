import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { maxLoginFailures } from '../accounts/index.ts';
import { freeMessagesPerDay, messagesPerMinute } from '../chat/index.ts';
import { searchPerMinute } from '../search/index.ts';
import { freeLikesPerDay } from '../swipes/index.ts';
import { signUpVerified } from '../../test/accounts.ts';
import { Browser, json } from '../../test/browser.ts';
import { createPerson, type Person } from '../../test/people.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';

/**
 * Every allowance holds when one user fires 30 requests at once: the count and the write happen under one
 * lock (or in one conditional statement), so the number accepted is exact, never "the limit plus whatever
 * raced past the count". The app's clock stands still, so no window rolls over mid-test.
 */
describe.each(testDialects())('allowances under 30 parallel requests on %s', (dialect) => {
  let app: TestApp;
  beforeEach(async () => {
    app = await createTestApp(dialect);
  });
  afterEach(async () => {
    await app.close();
  });

  const hourAgo = () => new Date(app.clock.now().getTime() - 3_600_000).toISOString();
  /** Fires every request at the same moment (the CSRF token fetched first, as an open tab has it). */
  async function burst(person: Person, requests: ((person: Person) => Promise<Response>)[]): Promise<Response[]> {
    await person.browser.csrfToken();
    return Promise.all(requests.map((request) => request(person)));
  }
  const statuses = (answers: Response[]) => answers.map((r) => r.status);
  const count = (list: number[], status: number) => list.filter((s) => s === status).length;

  it(`accepts exactly the ${freeLikesPerDay - 45} likes left of ${freeLikesPerDay} when 30 arrive at once`, async () => {
    const free = await createPerson(app, { gender: 'Male' });
    const earlier = await Promise.all(Array.from({ length: 45 }, () => createPerson(app)));
    await app.database.db
      .insertInto('swipes')
      .values(
        earlier.map((p) => ({ swiper_id: free.profileId, target_id: p.profileId, liked: 1, created_at: hourAgo() })),
      )
      .execute();
    const targets = await Promise.all(Array.from({ length: 30 }, () => createPerson(app)));
    const answers = statuses(
      await burst(
        free,
        targets.map((t) => (p: Person) => p.browser.post('/api/like', { profile_id: t.profileId })),
      ),
    );
    expect(count(answers, 200)).toBe(freeLikesPerDay - 45);
    expect(count(answers, 429)).toBe(30 - (freeLikesPerDay - 45));
    const given = await app.database.db
      .selectFrom('swipes')
      .select('target_id')
      .where('swiper_id', '=', free.profileId)
      .where('liked', '=', 1)
      .execute();
    expect(given).toHaveLength(freeLikesPerDay);
  });

  it(`accepts exactly the ${freeMessagesPerDay - 95} messages left of ${freeMessagesPerDay} a day when 30 arrive at once`, async () => {
    const [a, conversation] = await conversationOf(app);
    await app.database.db
      .insertInto('messages')
      .values(
        Array.from({ length: 95 }, (_, i) => ({
          conversation_id: conversation,
          sender_id: a.profileId,
          content: `earlier ${i}`,
          created_at: hourAgo(),
          read_at: null,
        })),
      )
      .execute();
    const answers = statuses(
      await burst(
        a,
        Array.from(
          { length: 30 },
          (_, i) => (p: Person) =>
            p.browser.post(`/api/conversations/${conversation}/messages`, { content: `now ${i}` }),
        ),
      ),
    );
    expect(count(answers, 201)).toBe(freeMessagesPerDay - 95);
    expect(count(answers, 429)).toBe(30 - (freeMessagesPerDay - 95));
    const sent = await app.database.db
      .selectFrom('messages')
      .select('id')
      .where('sender_id', '=', a.profileId)
      .execute();
    expect(sent).toHaveLength(freeMessagesPerDay);
  });

  it(`accepts exactly ${messagesPerMinute} messages a minute from a premium user sending 40 at once`, async () => {
    const [a, conversation] = await conversationOf(app, { premium: true });
    const answers = statuses(
      await burst(
        a,
        Array.from(
          { length: 40 },
          (_, i) => (p: Person) =>
            p.browser.post(`/api/conversations/${conversation}/messages`, { content: `fast ${i}` }),
        ),
      ),
    );
    expect(count(answers, 201)).toBe(messagesPerMinute);
    expect(count(answers, 429)).toBe(40 - messagesPerMinute);
  });

  it(`accepts exactly the ${searchPerMinute - 45} searches left in the minute when 30 arrive at once`, async () => {
    const viewer = await createPerson(app, { gender: 'Male' });
    const search = (p: Person) => p.browser.get('/api/search?gender=Female');
    expect(
      statuses(
        await burst(
          viewer,
          Array.from({ length: 45 }, () => search),
        ),
      ).every((s) => s === 404),
    ).toBe(true);
    const answers = await burst(
      viewer,
      Array.from({ length: 30 }, () => search),
    );
    expect(count(statuses(answers), 404)).toBe(searchPerMinute - 45);
    const refused = answers.filter((r) => r.status === 429);
    expect(refused).toHaveLength(30 - (searchPerMinute - 45));
    expect((await json<{ code: string }>(refused[0] as Response)).code).toBe('search_rate_limited');
  });

  it(`lets exactly ${maxLoginFailures} wrong passwords through when 30 arrive at once from one address`, async () => {
    const { email } = await signUpVerified(app);
    const attacker = new Browser(app.url);
    const token = await attacker.csrfToken();
    const answers = statuses(
      await Promise.all(
        Array.from({ length: 30 }, () =>
          attacker.post('/api/login', { email, password: 'wrong-guess-1' }, { headers: { 'X-CSRF-Token': token } }),
        ),
      ),
    );
    expect(count(answers, 401)).toBe(maxLoginFailures);
    expect(count(answers, 429)).toBe(30 - maxLoginFailures);
  });

  it('mails exactly one verification code when 30 requests for one arrive at once', async () => {
    const unverified = await createPerson(app, { verified: false });
    const answers = statuses(
      await burst(
        unverified,
        Array.from({ length: 30 }, () => (p: Person) => p.browser.get('/api/send_verification_code')),
      ),
    );
    expect(count(answers, 200)).toBe(1);
    expect(count(answers, 429)).toBe(29);
    const codes = await app.database.db
      .selectFrom('verification_codes')
      .select('id')
      .where('user_id', '=', unverified.userId)
      .execute();
    expect(codes).toHaveLength(1);
  });
});

/** Two matched people and their conversation, made through the API as the app would. */
async function conversationOf(app: TestApp, options: { premium?: boolean } = {}): Promise<[Person, number]> {
  const a = await createPerson(app, { gender: 'Male', ...options });
  const b = await createPerson(app);
  expect((await a.browser.post('/api/like', { profile_id: b.profileId })).status).toBe(200);
  expect((await b.browser.post('/api/like', { profile_id: a.profileId })).status).toBe(200);
  const started = await a.browser.post('/api/conversations/start', { profile_id: b.profileId });
  return [a, (await json<{ conversation_id: number }>(started)).conversation_id];
}
