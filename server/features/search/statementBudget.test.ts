import { describe, expect, it } from 'vitest';
import type { SearchResult } from '../../contract/discovery.ts';
import { json } from '../../test/browser.ts';
import { createPerson } from '../../test/people.ts';
import { useStatementCountingApp } from '../../test/statementCountingApp.ts';
import { testDialects } from '../../test/testDatabase.ts';

/**
 * The next card's statement budget, the search's own statements (the session's lookup is not the search's:
 * a GET finds it in the cache on PostgreSQL unless a change notice is still on its way, as on a loaded
 * machine): each statement is a round trip on PostgreSQL, and a search is the call people make most. Its rate
 * counters are incremented by the statement that reads where the search starts from (one round trip, were
 * two), the changes since the pool's watermark are asked by that statement too (searchChanges.ts changesAtStart:
 * another), and the pooled person re-checked comes with their photos and prompts (another). The people to find were last
 * changed an hour ago, so they are pooled people, not changes to re-check first (whether a change just
 * made counts as seen depends on PostgreSQL's horizon, which other databases' transactions hold back).
 */
const budgets = { postgres: { nextCard: 2 }, sqlite: { nextCard: 5 } };

describe.each(testDialects())('statements of a search on %s', (dialect) => {
  const budget = budgets[dialect];
  const counted = useStatementCountingApp(dialect);
  const { log } = counted;

  it(`serves the next card from the pool in at most ${budget.nextCard} statements, counting the search on the way`, async () => {
    const app = counted.app();
    const viewer = await createPerson(app, { gender: 'Male' });
    const others = [];
    for (let i = 0; i < 4; i++)
      others.push(await createPerson(app, { photos: 3, prompts: [{ prompt_id: 1, answer: `Ответ ${i}` }] }));
    const anHourAgo = new Date(Date.now() - 3_600_000).toISOString();
    await app.database.db
      .updateTable('profiles')
      .set({ search_changed_at: anHourAgo })
      .where(
        'id',
        'in',
        others.map((o) => o.profileId),
      )
      .execute();
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
    // And their prompts, read with them: a card costs no statement more for them.
    expect(card.prompts).toEqual([
      { prompt_id: 1, question: 'Мой идеальный выходной…', answer: expect.stringMatching(/^Ответ \d$/) as unknown },
    ]);
    const own = statements.filter((statement) => !/from "sessions"/.test(statement));
    expect(own.length, own.join('\n')).toBeLessThanOrEqual(budget.nextCard);
    const counters = await app.database.db
      .selectFrom('rate_counters')
      .select(['key', 'count'])
      .where('key', 'like', 'search:%')
      .execute();
    expect(counters.map((c) => c.count)).toEqual([2, 2]);
  });
});
