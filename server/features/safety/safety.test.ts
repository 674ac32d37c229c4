import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPerson, searchAll, type Person } from '../../test/people.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';

describe.each(testDialects())('safety on %s', (dialect) => {
  let app: TestApp;
  beforeEach(async () => {
    app = await createTestApp(dialect);
  });
  afterEach(async () => {
    await app.close();
  });

  const ids = async (viewer: Person, params: Record<string, string> = {}) => (await searchAll(viewer, params)).map((r) => r.id);

  it('stores a report for moderation and blocks', async () => {
    const reporter = await createPerson(app, { gender: 'Male' });
    const bad = await createPerson(app);
    expect((await reporter.browser.post('/api/report', { profile_id: bad.profileId, reason: 'nonsense' })).status).toBe(400);
    expect((await reporter.browser.post('/api/report', { profile_id: reporter.profileId, reason: 'fake' })).status).toBe(400);
    const res = await reporter.browser.post('/api/report', { profile_id: bad.profileId, reason: 'spam', comment: 'asks for money' });
    expect(res.status).toBe(200);
    const reports = await app.database.db.selectFrom('reports').selectAll().execute();
    expect(reports).toMatchObject([
      { reporter_id: reporter.profileId, reported_id: bad.profileId, reason: 'spam', comment: 'asks for money', resolved_at: null },
    ]);
    expect(await ids(reporter)).not.toContain(bad.profileId);
    expect(await ids(bad, { gender: 'Any' })).not.toContain(reporter.profileId);
  });
});
