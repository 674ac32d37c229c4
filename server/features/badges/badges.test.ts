import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventType } from '../../../db/schema.ts';
import type { BadgeCounts } from '../../contract/badges.ts';
import { createLogger } from '../../logger.ts';
import { Browser, json } from '../../test/browser.ts';
import { EventStreamClient, type ReceivedEvent } from '../../test/eventStream.ts';
import { createPerson, type Person, type PersonHost } from '../../test/people.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { createTestDatabase, testDialects } from '../../test/testDatabase.ts';
import { PostgresEventBus } from '../events/index.ts';

const none: BadgeCounts = { unread_chats: 0, new_matches: 0, new_likers: 0 };

describe.each(testDialects())('badges and seen marks on %s', (dialect) => {
  let app: TestApp;
  beforeEach(async () => {
    app = await createTestApp(dialect);
  });
  afterEach(async () => {
    await app.close();
  });

  const badges = async (person: Person) => {
    const res = await person.browser.get('/api/badges');
    expect(res.status).toBe(200);
    return json<BadgeCounts>(res);
  };
  const streamOf = (person: Person, host: PersonHost = app, headers: Record<string, string> = {}) =>
    EventStreamClient.open(`${host.url}/api/events`, {
      Cookie: `iskra_session=${person.browser.cookie('iskra_session') ?? ''}`,
      ...headers,
    });
  const sameCounts = (expected: BadgeCounts) => (e: ReceivedEvent) =>
    e.type === 'badges' && JSON.stringify(e.data) === JSON.stringify(expected);
  const like = (from: Person, to: Person) => from.browser.post('/api/like', { profile_id: to.profileId });
  async function match(a: Person, b: Person): Promise<void> {
    expect((await like(a, b)).status).toBe(200);
    expect((await like(b, a)).status).toBe(200);
  }
  const start = async (from: Person, to: Person) =>
    (
      await json<{ conversation_id: number }>(
        await from.browser.post('/api/conversations/start', { profile_id: to.profileId }),
      )
    ).conversation_id;
  const send = (from: Person, conversation: number, content: string) =>
    from.browser.post(`/api/conversations/${conversation}/messages`, { content });

  it('counts conversations with unread messages, and drops one when it is read', async () => {
    const me = await createPerson(app, { gender: 'Male' });
    const [b, c] = [await createPerson(app), await createPerson(app)];
    await match(me, b);
    await match(me, c);
    const withB = await start(b, me);
    const withC = await start(c, me);
    expect((await badges(me)).unread_chats).toBe(0);
    const stream = await streamOf(me);
    await send(b, withB, 'раз');
    await send(b, withB, 'два');
    expect((await badges(me)).unread_chats).toBe(1);
    await send(c, withC, 'привет');
    expect((await badges(me)).unread_chats).toBe(2);
    // The sender's own messages never count for them.
    expect((await badges(b)).unread_chats).toBe(0);
    const two = await stream.waitFor((e) => e.type === 'badges' && (e.data as BadgeCounts).unread_chats === 2);
    expect((await me.browser.get(`/api/conversations/${withB}/messages`)).status).toBe(200);
    expect((await badges(me)).unread_chats).toBe(1);
    // The reader's streams (all their devices) hear the count drop.
    await stream.waitFor((e) => e.type === 'badges' && (e.data as BadgeCounts).unread_chats === 1 && e.id > two.id);
    stream.close();
  });

  it('counts matches not yet opened: opening the match or starting its chat takes it off, for that person only', async () => {
    const me = await createPerson(app, { gender: 'Male' });
    const [b, c] = [await createPerson(app), await createPerson(app)];
    const stream = await streamOf(me);
    await match(me, b);
    await match(me, c);
    expect(await badges(me)).toEqual({ ...none, new_matches: 2 });
    expect(await badges(b)).toEqual({ ...none, new_matches: 1 });
    await stream.waitFor(sameCounts({ ...none, new_matches: 2 }));
    expect(await json(await me.browser.post('/api/matches/opened', { profile_id: b.profileId }))).toEqual({ ok: true });
    expect((await badges(me)).new_matches).toBe(1);
    await stream.waitFor(sameCounts({ ...none, new_matches: 1 }));
    await start(me, c);
    expect((await badges(me)).new_matches).toBe(0);
    // Seeing the overlay is not opening the match.
    expect((await b.browser.post('/api/matches/seen', { profile_id: me.profileId })).status).toBe(200);
    expect((await badges(b)).new_matches).toBe(1);
    expect((await badges(c)).new_matches).toBe(1);
    stream.close();
  });

  it('counts new likers for a free user too, until the Likes screen is opened; a like after that counts again', async () => {
    const me = await createPerson(app, { gender: 'Male' });
    const [b, c, d] = [await createPerson(app), await createPerson(app), await createPerson(app)];
    const stream = await streamOf(me);
    await like(b, me);
    await like(c, me);
    expect(await badges(me)).toEqual({ ...none, new_likers: 2 });
    await stream.waitFor(sameCounts({ ...none, new_likers: 2 }));
    expect(await json(await me.browser.post('/api/likes/seen', {}))).toEqual({ ok: true });
    expect((await badges(me)).new_likers).toBe(0);
    await stream.waitFor(sameCounts(none));
    // In the same millisecond as the mark (the test clock stands still): still new.
    await like(d, me);
    expect((await badges(me)).new_likers).toBe(1);
    // Answering a liker takes them off; a dislike does too.
    await like(me, d);
    expect(await badges(me)).toEqual({ ...none, new_matches: 1 });
    const e = await createPerson(app);
    await like(e, me);
    await me.browser.post('/api/dislike', { profile_id: e.profileId });
    expect((await badges(me)).new_likers).toBe(0);
    // A block either way takes a liker off.
    const f = await createPerson(app);
    await like(f, me);
    expect((await badges(me)).new_likers).toBe(1);
    await f.browser.post('/api/block', { profile_id: me.profileId });
    expect((await badges(me)).new_likers).toBe(0);
    stream.close();
  });

  it('drops the counts and tells both people `unmatched` when a match ends by unmatch or block', async () => {
    const me = await createPerson(app, { gender: 'Male' });
    const [b, c] = [await createPerson(app), await createPerson(app)];
    await match(me, b);
    await match(me, c);
    await send(b, await start(b, me), 'привет');
    await send(c, await start(c, me), 'здравствуй');
    expect(await badges(me)).toEqual({ unread_chats: 2, new_matches: 2, new_likers: 0 });
    const [mine, theirs] = [await streamOf(me), await streamOf(b)];
    expect((await me.browser.post('/api/unmatch', { profile_id: b.profileId })).status).toBe(200);
    expect((await mine.waitFor((e) => e.type === 'unmatched')).data).toEqual({ profile_id: b.profileId });
    expect((await theirs.waitFor((e) => e.type === 'unmatched')).data).toEqual({ profile_id: me.profileId });
    expect(await badges(me)).toEqual({ unread_chats: 1, new_matches: 1, new_likers: 0 });
    await mine.waitFor(sameCounts({ unread_chats: 1, new_matches: 1, new_likers: 0 }));

    const hers = await streamOf(c);
    expect((await c.browser.post('/api/block', { profile_id: me.profileId })).status).toBe(200);
    await mine.waitFor((e) => e.type === 'unmatched' && (e.data as { profile_id: number }).profile_id === c.profileId);
    await hers.waitFor((e) => e.type === 'unmatched' && (e.data as { profile_id: number }).profile_id === me.profileId);
    expect(await badges(me)).toEqual(none);
    await mine.waitFor(sameCounts(none));
    for (const stream of [mine, theirs, hers]) stream.close();
  });

  it('tells a block without a match to the blocker’s own devices only', async () => {
    const me = await createPerson(app, { gender: 'Male' });
    const stranger = await createPerson(app);
    await like(stranger, me);
    const [mine, theirs] = [await streamOf(me), await streamOf(stranger)];
    expect((await me.browser.post('/api/block', { profile_id: stranger.profileId })).status).toBe(200);
    expect((await mine.waitFor((e) => e.type === 'unmatched')).data).toEqual({ profile_id: stranger.profileId });
    await mine.waitFor(sameCounts(none));
    // The blocked person's stream gets at most a count, never the block.
    await theirs.waitFor((e) => e.type === 'badges');
    expect(theirs.events.filter((e) => e.type !== 'badges')).toEqual([]);
    mine.close();
    theirs.close();
  });

  it('tells the partner `unmatched` when a profile is deleted, and drops their counts', async () => {
    const me = await createPerson(app, { gender: 'Male' });
    const leaving = await createPerson(app);
    const admirer = await createPerson(app, { gender: 'Male' });
    await match(me, leaving);
    await send(leaving, await start(leaving, me), 'прощай');
    await like(leaving, admirer);
    expect(await badges(me)).toEqual({ unread_chats: 1, new_matches: 1, new_likers: 0 });
    expect((await badges(admirer)).new_likers).toBe(1);
    const [mine, theirs] = [await streamOf(me), await streamOf(admirer)];
    expect((await leaving.browser.post('/api/delete_profile', {})).status).toBe(200);
    expect((await mine.waitFor((e) => e.type === 'unmatched')).data).toEqual({
      profile_id: leaving.profileId,
      deleted: true,
    });
    await mine.waitFor(sameCounts(none));
    await theirs.waitFor(sameCounts(none));
    expect(await badges(me)).toEqual(none);
    expect(await badges(admirer)).toEqual(none);
    // Without a profile the counts are all zero.
    expect(await badges(leaving)).toEqual(none);
    mine.close();
    theirs.close();
  });

  it('tells the user’s other devices that a match overlay was seen, and never replays a seen match on resume', async () => {
    const me = await createPerson(app, { gender: 'Male' });
    const [b, c, admirer] = [await createPerson(app), await createPerson(app), await createPerson(app)];
    const phone = await streamOf(me);
    await like(admirer, me);
    const cursor = (await phone.waitFor((e) => e.type === 'badges')).id;
    const laptop = await streamOf(me);
    await match(me, b);
    await match(me, c);
    const overlay = await laptop.waitFor(
      (e) => e.type === 'match' && (e.data as { profile: { id: number } }).profile.id === b.profileId,
    );
    await laptop.waitFor(
      (e) => e.type === 'match' && (e.data as { profile: { id: number } }).profile.id === c.profileId,
    );
    expect((await me.browser.post('/api/matches/seen', { profile_id: b.profileId })).status).toBe(200);
    expect((await phone.waitFor((e) => e.type === 'match_seen')).data).toEqual({ profile_id: b.profileId });
    phone.close();
    laptop.close();

    // A tab resuming from before both matches gets only the one still to be shown, then the mark.
    const resumed = await streamOf(me, app, { 'Last-Event-ID': String(cursor) });
    await resumed.waitFor((e) => e.type === 'match_seen');
    const replayed = resumed.events
      .filter((e) => e.type === 'match')
      .map((e) => (e.data as { profile: { id: number } }).profile.id);
    expect(replayed).toEqual([c.profileId]);
    expect(resumed.events.map((e) => e.id)).not.toContain(overlay.id);
    // One badges event per batch, with the current counts.
    expect(resumed.events.filter((e) => e.type === 'badges').map((e) => e.data)).toEqual([
      { ...none, new_matches: 2, new_likers: 1 },
    ]);
    resumed.close();

    // Opening a match implies its overlay was seen: the other devices close it too.
    const again = await streamOf(me);
    expect((await me.browser.post('/api/matches/opened', { profile_id: c.profileId })).status).toBe(200);
    expect((await again.waitFor((e) => e.type === 'match_seen')).data).toEqual({ profile_id: c.profileId });
    again.close();
    const later = await streamOf(me, app, { 'Last-Event-ID': String(cursor) });
    await later.waitFor((e) => e.type === 'badges');
    expect(later.events.filter((e) => e.type === 'match')).toEqual([]);
    later.close();
  });

  it('makes parallel marks idempotent: one change, one event', async () => {
    const me = await createPerson(app, { gender: 'Male' });
    const b = await createPerson(app);
    const likers = await Promise.all(Array.from({ length: 3 }, () => createPerson(app)));
    for (const liker of likers) await like(liker, me);
    await match(me, b);
    const eventsOf = async (type: EventType) =>
      (
        await app.database.db
          .selectFrom('events')
          .select('id')
          .where('user_id', '=', me.userId)
          .where('type', '=', type)
          .execute()
      ).length;
    const badgesBefore = await eventsOf('badges');
    const answers = await Promise.all([
      ...Array.from({ length: 5 }, () => me.browser.post('/api/matches/seen', { profile_id: b.profileId })),
      ...Array.from({ length: 5 }, () => me.browser.post('/api/likes/seen', {})),
    ]);
    expect(answers.map((r) => r.status)).toEqual(Array.from({ length: 10 }, () => 200));
    expect(await eventsOf('match_seen')).toBe(1);
    // One for the overlay mark, one for the likes mark.
    expect((await eventsOf('badges')) - badgesBefore).toBe(2);
    const opened = await Promise.all(
      Array.from({ length: 5 }, () => me.browser.post('/api/matches/opened', { profile_id: b.profileId })),
    );
    expect(opened.map((r) => r.status)).toEqual(Array.from({ length: 5 }, () => 200));
    expect(await eventsOf('match_seen')).toBe(1);
    expect((await eventsOf('badges')) - badgesBefore).toBe(3);
    const row = await app.database.db
      .selectFrom('matches')
      .select(['profile_low', 'low_seen', 'high_seen'])
      .executeTakeFirstOrThrow();
    expect(row.profile_low === me.profileId ? row.low_seen : row.high_seen).toBe(2);
    expect(row.profile_low === me.profileId ? row.high_seen : row.low_seen).toBe(0);
    expect(await badges(me)).toEqual(none);
  });

  it('refuses bad input, unknown matches and strangers with 4xx and changes nothing', async () => {
    const me = await createPerson(app, { gender: 'Male' });
    const b = await createPerson(app);
    const stranger = await createPerson(app);
    await match(me, b);
    await like(stranger, me);
    const before = await app.database.db.selectFrom('events').select('id').execute();
    for (const path of ['/api/matches/seen', '/api/matches/opened']) {
      for (const body of [
        {},
        { profile_id: 'abc' },
        { profile_id: -1 },
        { profile_id: 2 ** 31 },
        { profile_id: b.profileId, extra: 1 },
        [b.profileId],
      ]) {
        const res = await me.browser.post(path, body);
        expect(res.status).toBe(400);
        expect(await json(res)).toMatchObject({ code: 'invalid_input' });
      }
      for (const profileId of [stranger.profileId, me.profileId, 999_999]) {
        const res = await me.browser.post(path, { profile_id: profileId });
        expect(res.status).toBe(404);
        expect(await json(res)).toEqual({ error: 'Match not found', code: 'match_not_found' });
      }
      // Cross-site: the CSRF token is required.
      expect((await me.browser.post(path, { profile_id: b.profileId }, { csrf: false })).status).toBe(403);
      expect((await new Browser(app.url).post(path, { profile_id: b.profileId })).status).toBe(401);
    }
    expect((await me.browser.post('/api/likes/seen', { all: true })).status).toBe(400);
    for (const body of [
      {},
      { ids: [] },
      { ids: Array.from({ length: 101 }, (_, i) => i + 1) },
      { ids: [0] },
      { ids: [2 ** 31] },
      { ids: 'x' },
      { ids: [1], more: 1 },
    ]) {
      const res = await me.browser.post('/api/events/ack', body);
      expect(res.status).toBe(400);
      expect(await json(res)).toMatchObject({ code: 'invalid_input' });
    }
    expect(await app.database.db.selectFrom('events').select('id').execute()).toEqual(before);
    expect(await badges(me)).toEqual({ ...none, new_matches: 1, new_likers: 1 });
    // A GET never changes anything, and an anonymous one is refused.
    expect((await new Browser(app.url).get('/api/badges')).status).toBe(401);
    const noProfile = await createPerson(app);
    await app.database.db.deleteFrom('profiles').where('id', '=', noProfile.profileId).execute();
    expect(await badges(noProfile)).toEqual(none);
    expect((await noProfile.browser.post('/api/likes/seen', {})).status).toBe(409);
    expect((await noProfile.browser.post('/api/matches/seen', { profile_id: b.profileId })).status).toBe(409);
  });

  if (dialect === 'postgres') {
    it('delivers `match` and `badges` across two server processes on one database', async () => {
      const logger = createLogger('silent');
      const database = await createTestDatabase('postgres');
      const url = database.url ?? '';
      const schema = database.schema ?? '';
      const first = await createTestApp('postgres', {
        database,
        eventBus: await PostgresEventBus.start(url, schema, logger),
      });
      const second = await createTestApp('postgres', {
        database,
        eventBus: await PostgresEventBus.start(url, schema, logger),
      });
      try {
        const a = await createPerson(first, { gender: 'Male' });
        const [b, c] = [await createPerson(first), await createPerson(first)];
        // A listens on the first process; B and C act through the second.
        const onSecond = (person: Person) => {
          const browser = new Browser(second.url);
          browser.setCookie('iskra_session', person.browser.cookie('iskra_session') ?? '');
          return browser;
        };
        expect((await like(a, b)).status).toBe(200);
        const stream = await streamOf(a, first);
        expect((await onSecond(b).post('/api/like', { profile_id: a.profileId })).status).toBe(200);
        expect((await stream.waitFor((e) => e.type === 'match')).data).toMatchObject({ profile: { id: b.profileId } });
        await stream.waitFor(sameCounts({ ...none, new_matches: 1 }));
        const id = (
          await json<{ conversation_id: number }>(
            await onSecond(b).post('/api/conversations/start', { profile_id: a.profileId }),
          )
        ).conversation_id;
        expect(
          (await onSecond(b).post(`/api/conversations/${id}/messages`, { content: 'через процессы' })).status,
        ).toBe(201);
        await stream.waitFor(sameCounts({ unread_chats: 1, new_matches: 1, new_likers: 0 }));
        expect((await onSecond(c).post('/api/like', { profile_id: a.profileId })).status).toBe(200);
        await stream.waitFor(sameCounts({ unread_chats: 1, new_matches: 1, new_likers: 1 }));
        stream.close();
      } finally {
        await second.close();
        await first.close();
        await database.drop();
      }
    });
  }
});
