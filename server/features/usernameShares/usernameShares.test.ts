import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { UsersProfileResponse } from '../../contract/discovery.ts';
import type { UsernameShareResponse } from '../../contract/usernameShares.ts';
import { json } from '../../test/browser.ts';
import { createPerson, type Person, type PersonOptions } from '../../test/people.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';

describe.each(testDialects())('the @username swap on %s', (dialect) => {
  let app: TestApp;
  beforeEach(async () => {
    app = await createTestApp(dialect);
  });
  afterEach(async () => {
    await app.close();
  });

  /** A person whose account has this Telegram username (null: a Telegram account without one). */
  const personWithUsername = async (username: string | null, options: PersonOptions = {}) => {
    const person = await createPerson(app, options);
    await app.database.db
      .updateTable('users')
      .set({ telegram_id: String(7_000_000_000 + person.userId), telegram_username: username })
      .where('id', '=', person.userId)
      .execute();
    return person;
  };
  const matched = async (a: Person, b: Person) => {
    expect((await a.browser.post('/api/like', { profile_id: b.profileId })).status).toBe(200);
    expect((await b.browser.post('/api/like', { profile_id: a.profileId })).status).toBe(200);
  };
  const share = (from: Person, to: Person) => from.browser.post('/api/share_username', { profile_id: to.profileId });
  const revoke = (from: Person, to: Person) =>
    from.browser.post('/api/share_username/revoke', { profile_id: to.profileId });
  const profileSeenBy = async (viewer: Person, other: Person) =>
    (await json<UsersProfileResponse>(await viewer.browser.get(`/api/users_profile?profile_id=${other.profileId}`)))
      .users_profile;

  it('shows each the other @username only once both shared, and hides it again when one takes it back', async () => {
    const masha = await personWithUsername('masha_k');
    const petya = await personWithUsername('petya_v', { gender: 'Male' });
    await matched(masha, petya);

    // Neither shared.
    expect(await profileSeenBy(masha, petya)).toMatchObject({
      username_share: { mine: false, theirs: false, can_share: true },
      telegram_username: null,
    });
    expect(await profileSeenBy(petya, masha)).toMatchObject({
      username_share: { mine: false, theirs: false, can_share: true },
      telegram_username: null,
    });

    // Only Masha shared: Petya sees that she did, but neither sees a username yet.
    const first = await share(masha, petya);
    expect(first.status).toBe(200);
    expect(await json<UsernameShareResponse>(first)).toEqual({
      username_share: { mine: true, theirs: false, can_share: true },
      telegram_username: null,
    });
    expect(await profileSeenBy(petya, masha)).toMatchObject({
      username_share: { mine: false, theirs: true },
      telegram_username: null,
    });
    expect(JSON.stringify(await profileSeenBy(petya, masha))).not.toContain('masha_k');

    // Both shared: each sees the other's (and only the other's) username.
    expect(await json<UsernameShareResponse>(await share(petya, masha))).toEqual({
      username_share: { mine: true, theirs: true, can_share: true },
      telegram_username: 'masha_k',
    });
    expect(await profileSeenBy(masha, petya)).toMatchObject({
      username_share: { mine: true, theirs: true },
      telegram_username: 'petya_v',
    });
    expect(await profileSeenBy(petya, masha)).toMatchObject({ telegram_username: 'masha_k' });
    // Sharing again changes nothing.
    expect((await share(petya, masha)).status).toBe(200);

    // Masha takes hers back: neither sees the other's any more.
    expect(await json<UsernameShareResponse>(await revoke(masha, petya))).toEqual({
      username_share: { mine: false, theirs: true, can_share: true },
      telegram_username: null,
    });
    expect(await profileSeenBy(petya, masha)).toMatchObject({
      username_share: { mine: true, theirs: false },
      telegram_username: null,
    });
    expect(await profileSeenBy(masha, petya)).toMatchObject({ telegram_username: null });
  });

  it('refuses anyone but a live match, a caller without a Telegram username, and bad input, changing nothing', async () => {
    const me = await personWithUsername('me_here');
    const stranger = await personWithUsername('stranger', { gender: 'Male' });
    const noUsername = await personWithUsername(null, { gender: 'Male' });
    const webOnly = await createPerson(app, { gender: 'Male' });
    await matched(me, noUsername);
    await matched(me, webOnly);

    for (const res of [await share(me, stranger), await revoke(me, stranger), await share(me, me)]) {
      expect(res.status).toBe(404);
      expect(await json(res)).toMatchObject({ code: 'match_not_found' });
    }
    expect((await me.browser.post('/api/share_username', { profile_id: 999_999 })).status).toBe(404);
    for (const body of [{}, { profile_id: 'x' }, { profile_id: -3 }, { profile_id: stranger.profileId, extra: 1 }]) {
      expect((await me.browser.post('/api/share_username', body)).status).toBe(400);
    }
    // No username to share, on a Telegram account and on a web account: told so, with its own code.
    for (const [who, to] of [
      [noUsername, me],
      [webOnly, me],
    ] as const) {
      const res = await share(who, to);
      expect(res.status).toBe(409);
      expect(await json(res)).toMatchObject({ code: 'no_telegram_username' });
      expect(await profileSeenBy(who, to)).toMatchObject({ username_share: { mine: false, can_share: false } });
    }
    // Signed out: 401.
    const anonymous = await createPerson(app);
    await anonymous.browser.post('/api/logout', {});
    expect((await share(anonymous, me)).status).toBe(401);

    const rows = await app.database.db
      .selectFrom('matches')
      .select(['low_shared_username_at', 'high_shared_username_at'])
      .execute();
    expect(rows.every((r) => r.low_shared_username_at === null && r.high_shared_username_at === null)).toBe(true);
  });

  it('is taken back by an unmatch, a block or the deletion of either account', async () => {
    const me = await personWithUsername('center');
    const others = await Promise.all(
      ['unmatched1', 'blocked1', 'deleted1'].map((u) => personWithUsername(u, { gender: 'Male' })),
    );
    const [unmatched, blocked, deleted] = others as [Person, Person, Person];
    for (const other of others) {
      await matched(me, other);
      expect((await share(me, other)).status).toBe(200);
      expect((await share(other, me)).status).toBe(200);
      expect(await profileSeenBy(other, me)).toMatchObject({ telegram_username: 'center' });
    }

    expect((await unmatched.browser.post('/api/unmatch', { profile_id: me.profileId })).status).toBe(200);
    expect((await blocked.browser.post('/api/block', { profile_id: me.profileId })).status).toBe(200);
    expect((await deleted.browser.post('/api/delete_account', {})).status).toBe(200);

    for (const other of [unmatched, blocked]) {
      // Neither side can see the other, nor share again.
      expect((await me.browser.get(`/api/users_profile?profile_id=${other.profileId}`)).status).toBe(404);
      expect((await share(other, me)).status).toBe(404);
    }
    // Nothing of the consents is kept.
    const rows = await app.database.db
      .selectFrom('matches')
      .select(['low_shared_username_at', 'high_shared_username_at', 'unmatched_at'])
      .execute();
    expect(rows).toHaveLength(2);
    expect(
      rows.every(
        (r) => r.unmatched_at !== null && r.low_shared_username_at === null && r.high_shared_username_at === null,
      ),
    ).toBe(true);
  });

  it('never shows a username on a liker profile or in the match list', async () => {
    const me = await personWithUsername('me_liked', { premium: true });
    const liker = await personWithUsername('liker_name', { gender: 'Male' });
    expect((await liker.browser.post('/api/like', { profile_id: me.profileId })).status).toBe(200);
    const res = await me.browser.get(`/api/users_profile_liker?profile_id=${liker.profileId}`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain('liker_name');
    expect(text).not.toContain('username_share');
  });
});
