import { describe, expect, it } from 'vitest';
import type { SearchResult } from '../../contract/discovery.ts';
import { json } from '../../test/browser.ts';
import { createPerson } from '../../test/people.ts';
import { useStatementCountingApp } from '../../test/statementCountingApp.ts';
import { testDialects } from '../../test/testDatabase.ts';

/**
 * The next card's statement budget, for the whole request (the session is a GET's, cached on PostgreSQL): each
 * statement is a round trip on PostgreSQL, and a search is the call people make most. Its rate counters are
 * incremented by the statement that reads where the search starts from (one round trip, were two), and the
 * pooled person re-checked comes with their photos (another). On SQLite, which keeps no transaction horizon,
 * the people just made are changes the pool re-checks first, without photos: they are read apart there, locally.
 */
const budgets = { postgres: { nextCard: 4 }, sqlite: { nextCard: 7 } };

describe.each(testDialects())('statements of a search on %s', (dialect) => {
  const budget = budgets[dialect];
  const counted = useStatementCountingApp(dialect);
  const { log } = counted;

  it(`serves the next card from the pool in at most ${budget.nextCard} statements, counting the search on the way`, async () => {
    const app = counted.app();
    const viewer = await createPerson(app, { gender: 'Male' });
    for (let i = 0; i < 4; i++) await createPerson(app, { photos: 3 });
    const first = await json<SearchResult>(await viewer.browser.get('/api/search'));
    let next: Response | undefined;
    const statements = await log.during(async () => {
      next = await viewer.browser.get(`/api/search?exclude=${first.profile_id}`);
    });
    expect(next?.status).toBe(200);
    const card = await json<SearchResult>(next as Response);
    // Their photos, all of them in their order, as a card read any other way shows them.
    const photos = await app.database.db
      .selectFrom('photos')
      .select('file_name')
      .where('profile_id', '=', card.profile_id)
      .orderBy('position')
      .orderBy('id')
      .execute();
    expect(photos).toHaveLength(3);
    expect(card.photo).toBe(photos.map((p) => p.file_name).join(','));
    expect(statements.length, statements.join('\n')).toBeLessThanOrEqual(budget.nextCard);
    const counters = await app.database.db.selectFrom('rate_counters').select(['key', 'count']).where('key', 'like', 'search:%').execute();
    expect(counters.map((c) => c.count)).toEqual([2, 2]);
  });
});
