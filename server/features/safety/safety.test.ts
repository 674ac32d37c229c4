import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProfileId } from '../../../db/schema.ts';
import { json } from '../../test/browser.ts';
import { createPerson, searchAll, type Person } from '../../test/people.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';
import { AdminService } from '../admin/index.ts';
import { holdEvidenceWeight, reportAllowance, reportWeights } from './reportEvidence.ts';

describe.each(testDialects())('safety on %s', (dialect) => {
  let app: TestApp;
  beforeEach(async () => {
    app = await createTestApp(dialect);
  });
  afterEach(async () => {
    await app.close();
  });

  const ids = async (viewer: Person, params: Record<string, string> = {}) =>
    (await searchAll(viewer, params)).map((r) => r.id);
  const report = (from: Person, about: Person | ProfileId, reason = 'fake') =>
    from.browser.post('/api/report', {
      profile_id: typeof about === 'number' ? about : about.profileId,
      reason,
      comment: 'чужие фото',
    });
  /** An account made two days ago: past the age at which a report starts to weigh. */
  const established = async (person: Person): Promise<Person> => {
    const twoDaysAgo = new Date(app.clock.now().getTime() - 2 * 86_400_000).toISOString();
    await app.database.db
      .updateTable('users')
      .set({ created_at: twoDaysAgo })
      .where('id', '=', person.userId)
      .execute();
    return person;
  };
  const man = async () => established(await createPerson(app, { gender: 'Male' }));
  const match = async (a: Person, b: Person) => {
    expect((await a.browser.post('/api/like', { profile_id: b.profileId })).status).toBe(200);
    expect((await b.browser.post('/api/like', { profile_id: a.profileId })).status).toBe(200);
  };
  /** `from` writes to `to` in their chat (they must have matched). */
  const write = async (from: Person, to: Person) => {
    const { conversation_id } = await json<{ conversation_id: number }>(
      await from.browser.post('/api/conversations/start', { profile_id: to.profileId }),
    );
    expect(
      (await from.browser.post(`/api/conversations/${conversation_id}/messages`, { content: 'Привет!' })).status,
    ).toBe(201);
  };
  const held = async (person: Person) =>
    (
      await app.database.db
        .selectFrom('profiles')
        .select('held_at')
        .where('id', '=', person.profileId)
        .executeTakeFirstOrThrow()
    ).held_at !== null;
  const evidenceAgainst = async (person: Person) =>
    (
      await app.database.db
        .selectFrom('reports')
        .select('evidence')
        .where('reported_id', '=', person.profileId)
        .orderBy('id')
        .execute()
    ).map((r) => r.evidence);

  it('stores a report for moderation and blocks', async () => {
    const reporter = await createPerson(app, { gender: 'Male' });
    const bad = await createPerson(app);
    expect((await reporter.browser.post('/api/report', { profile_id: bad.profileId, reason: 'nonsense' })).status).toBe(
      400,
    );
    expect(
      (await reporter.browser.post('/api/report', { profile_id: reporter.profileId, reason: 'fake' })).status,
    ).toBe(400);
    const res = await reporter.browser.post('/api/report', {
      profile_id: bad.profileId,
      reason: 'spam',
      comment: 'asks for money',
    });
    expect(res.status).toBe(200);
    const reports = await app.database.db.selectFrom('reports').selectAll().execute();
    expect(reports).toMatchObject([
      {
        reporter_id: reporter.profileId,
        reported_id: bad.profileId,
        reason: 'spam',
        comment: 'asks for money',
        resolved_at: null,
        evidence: 'new_account',
      },
    ]);
    expect(await ids(reporter)).not.toContain(bad.profileId);
    expect(await ids(bad, { gender: 'Any' })).not.toContain(reporter.profileId);
  });

  it('three fresh accounts reporting a profile they were never shown leave it in everyone else’s search and likes', async () => {
    const target = await createPerson(app, { gender: 'Female' });
    const searcher = await createPerson(app, { gender: 'Male' });
    const throwaways = await Promise.all([0, 1, 2].map(() => createPerson(app, { gender: 'Male' })));
    for (const throwaway of throwaways) expect((await report(throwaway, target)).status).toBe(200);
    expect(await ids(searcher)).toContain(target.profileId);
    expect((await searcher.browser.post('/api/like', { profile_id: target.profileId })).status).toBe(200);
    expect(await held(target)).toBe(false);
    expect(await evidenceAgainst(target)).toEqual(['new_account', 'new_account', 'new_account']);
    // Each reporter still never sees the person again (a report blocks).
    for (const throwaway of throwaways) expect(await ids(throwaway)).not.toContain(target.profileId);
  });

  it('reports from established accounts that were never shown the profile weigh nothing', async () => {
    const target = await createPerson(app, { gender: 'Female' });
    const searcher = await createPerson(app, { gender: 'Male' });
    const strangers = await Promise.all([0, 1, 2, 3, 4].map(() => man()));
    for (const stranger of strangers) expect((await report(stranger, target)).status).toBe(200);
    expect(await ids(searcher)).toContain(target.profileId);
    expect(await held(target)).toBe(false);
    expect(await evidenceAgainst(target)).toEqual(['unseen', 'unseen', 'unseen', 'unseen', 'unseen']);
    const queue = await new AdminService(app.database.db, app.clock).openReports();
    expect(queue.map((r) => [r.weight, r.score, r.reporters])).toEqual(strangers.map(() => [0, 0, 5]));

    // One who was shown the card (and swiped it) weighs, but a swipe never hides anyone.
    const swipers = await Promise.all([0, 1, 2, 3, 4, 5, 6, 7, 8].map(() => man()));
    for (const swiper of swipers) {
      expect((await swiper.browser.post('/api/dislike', { profile_id: target.profileId })).status).toBe(200);
      expect((await report(swiper, target)).status).toBe(200);
    }
    expect((await evidenceAgainst(target)).slice(5)).toEqual(swipers.map(() => 'shown'));
    expect(swipers.length * reportWeights.shown).toBeGreaterThanOrEqual(holdEvidenceWeight);
    expect(await held(target)).toBe(false);
    expect(await ids(searcher)).toContain(target.profileId);
  });

  it('caps reports at the daily allowance per reporter, under parallel requests; a refused report changes nothing', async () => {
    const reporter = await man();
    const targets = await Promise.all(
      Array.from({ length: reportAllowance.limit + 4 }, () => createPerson(app, { gender: 'Female' })),
    );
    const answers = await Promise.all(targets.map((t) => report(reporter, t)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(reportAllowance.limit);
    expect(statuses.filter((s) => s === 429)).toHaveLength(4);
    const refused = answers.find((a) => a.status === 429);
    expect(await refused?.json()).toMatchObject({
      code: 'report_limit',
      error: expect.any(String) as string,
      limit: reportAllowance.limit,
    });
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0);
    const filed = await app.database.db
      .selectFrom('reports')
      .select('reported_id')
      .where('reporter_id', '=', reporter.profileId)
      .execute();
    expect(filed).toHaveLength(reportAllowance.limit);
    // Neither a report nor a block for the refused ones: the reporter still sees those people.
    const reported = new Set(filed.map((f) => f.reported_id));
    const refusedTargets = targets.filter((t) => !reported.has(t.profileId)).map((t) => t.profileId);
    const blocks = await app.database.db
      .selectFrom('blocks')
      .select('blocked_id')
      .where('blocker_id', '=', reporter.profileId)
      .execute();
    expect(blocks.map((b) => b.blocked_id).sort()).toEqual([...reported].sort());
    expect(await ids(reporter)).toEqual(expect.arrayContaining(refusedTargets));
    // A plain block has no limit.
    expect((await reporter.browser.post('/api/block', { profile_id: refusedTargets[0] })).status).toBe(200);

    // A day after the first reports, the allowance is back.
    app.clock.advance(reportAllowance.windowSeconds + 1);
    expect((await report(reporter, refusedTargets[1] as ProfileId)).status).toBe(200);
  });

  it('holds a profile out of search and likes when established reporters who matched with it report it', async () => {
    const target = await createPerson(app, { gender: 'Female' });
    const searcher = await createPerson(app, { gender: 'Male' });
    const matched = await Promise.all([0, 1, 2].map(() => man()));
    for (const m of matched) await match(m, target);
    for (const m of matched.slice(0, 2)) expect((await report(m, target)).status).toBe(200);
    // 2 x 3: a lot for the queue, not yet enough to hide anyone.
    expect(await held(target)).toBe(false);
    expect(await ids(searcher)).toContain(target.profileId);
    expect((await report(matched[2] as Person, target)).status).toBe(200);
    expect(await evidenceAgainst(target)).toEqual(['matched', 'matched', 'matched']);
    expect(await held(target)).toBe(true);
    expect(await ids(searcher)).not.toContain(target.profileId);
    expect((await searcher.browser.post('/api/like', { profile_id: target.profileId })).status).toBe(404);
  });

  it('holds a profile when two established reporters it wrote to report it', async () => {
    const target = await createPerson(app, { gender: 'Female' });
    const searcher = await createPerson(app, { gender: 'Male' });
    const [first, second] = await Promise.all([man(), man()]);
    for (const m of [first, second]) {
      await match(m, target);
      await write(target, m);
    }
    expect((await report(first, target)).status).toBe(200);
    expect(await held(target)).toBe(false);
    expect((await report(second, target)).status).toBe(200);
    expect(await evidenceAgainst(target)).toEqual(['chatted', 'chatted']);
    expect(await held(target)).toBe(true);
    expect(await ids(searcher)).not.toContain(target.profileId);
  });

  it('orders the moderators’ queue by weighted evidence, then oldest first', async () => {
    const admin = new AdminService(app.database.db, app.clock);
    // Reported first, by three throwaway accounts: nothing weighs.
    const byThrowaways = await createPerson(app, { gender: 'Female' });
    for (const throwaway of await Promise.all([0, 1, 2].map(() => createPerson(app, { gender: 'Male' }))))
      expect((await report(throwaway, byThrowaways)).status).toBe(200);
    // Then by two established people who were shown the card: 2.
    const bySwipers = await createPerson(app, { gender: 'Female' });
    for (const swiper of await Promise.all([man(), man()])) {
      await swiper.browser.post('/api/like', { profile_id: bySwipers.profileId });
      expect((await report(swiper, bySwipers)).status).toBe(200);
    }
    // Last, by one person it wrote to: 5, though reported once (twice by them: counted once).
    const byPartner = await createPerson(app, { gender: 'Female' });
    const partner = await man();
    await match(partner, byPartner);
    await write(byPartner, partner);
    expect((await report(partner, byPartner, 'offensive')).status).toBe(200);
    expect((await report(partner, byPartner, 'spam')).status).toBe(200);

    const queue = await admin.openReports();
    expect(queue.map((r) => [r.reported_profile_id, r.evidence, r.weight, r.score, r.reporters])).toEqual([
      [byPartner.profileId, 'chatted', 5, 5, 1],
      [byPartner.profileId, 'chatted', 5, 5, 1],
      [bySwipers.profileId, 'shown', 1, 2, 2],
      [bySwipers.profileId, 'shown', 1, 2, 2],
      [byThrowaways.profileId, 'new_account', 0, 0, 3],
      [byThrowaways.profileId, 'new_account', 0, 0, 3],
      [byThrowaways.profileId, 'new_account', 0, 0, 3],
    ]);
    expect(queue.some((r) => r.held)).toBe(false);
    expect(await admin.report(queue[2]?.id ?? 0)).toEqual(queue[2]);
  });
});
