import { describe, expect, it } from 'vitest';
import type { MessagesResponse } from '../../contract/chat.ts';
import { json } from '../../test/browser.ts';
import { createPerson } from '../../test/people.ts';
import { useStatementCountingApp } from '../../test/statementCountingApp.ts';
import { testDialects } from '../../test/testDatabase.ts';

/**
 * A chat page's statement budget, for the whole request (session, rate counters and the page): each
 * statement is a round trip on PostgreSQL, and a page once took 8 where a raw-SQL peer takes 4 (issue 24).
 * Reading a page with nothing new must write nothing of its own. A message (a free sender, so its allowance is
 * counted, and a recipient who may be told by e-mail) once took 17: its events and badge marker are one insert;
 * then 16, until its rate counters, profile and conversation became one read and, on PostgreSQL, the message
 * and its conversation's time one statement. On SQLite, where a statement is no round trip, a page's header
 * and its messages are two: cheaper than the joined one (chat/repository.ts chatHeader).
 */
const budget = {
  page: { postgres: 2, sqlite: 3 },
  pageThatReads: { postgres: 6, sqlite: 7 },
  send: { postgres: 12, sqlite: 14 },
};

describe.each(testDialects())('statements of a chat page on %s', (dialect) => {
  const counted = useStatementCountingApp(dialect);
  const { log } = counted;

  it(`a page makes at most ${budget.page[dialect]} statements, one that marks messages read at most ${budget.pageThatReads[dialect]}`, async () => {
    const app = counted.app();
    const a = await createPerson(app, { gender: 'Male', premium: true });
    const b = await createPerson(app, { name: 'Белла' });
    await a.browser.post('/api/like', { profile_id: b.profileId });
    await b.browser.post('/api/like', { profile_id: a.profileId });
    const started = await json<{ conversation_id: number }>(
      await a.browser.post('/api/conversations/start', { profile_id: b.profileId }),
    );
    const url = `/api/conversations/${started.conversation_id}/messages?limit=20`;
    for (const content of ['one', 'two', 'three'])
      expect((await a.browser.post(`/api/conversations/${started.conversation_id}/messages`, { content })).status).toBe(
        201,
      );

    let page: MessagesResponse | undefined;
    const reading = await log.during(async () => {
      page = await json<MessagesResponse>(await b.browser.get(url));
    });
    expect(page?.messages.map((m) => m.content)).toEqual(['one', 'two', 'three']);
    expect(page?.participant.profile_id).toBe(a.profileId);
    const again = await log.during(async () => {
      page = await json<MessagesResponse>(await b.browser.get(url));
    });
    expect(page?.messages).toHaveLength(3);
    // The second read found nothing unread: it wrote nothing of its own (the session's upkeep is not the page's).
    expect(
      again.filter((s) => /^(begin|insert|update|delete)/i.test(s) && !/"(sessions|rate_counters)"/.test(s)),
    ).toEqual([]);
    expect(reading.length, reading.join('\n')).toBeLessThanOrEqual(budget.pageThatReads[dialect]);
    expect(again.length, again.join('\n')).toBeLessThanOrEqual(budget.page[dialect]);
  });

  it(`a message makes at most ${budget.send[dialect]} statements`, async () => {
    const app = counted.app();
    const a = await createPerson(app, { gender: 'Male' });
    const b = await createPerson(app, { name: 'Белла' });
    await a.browser.post('/api/like', { profile_id: b.profileId });
    await b.browser.post('/api/like', { profile_id: a.profileId });
    const started = await json<{ conversation_id: number }>(
      await a.browser.post('/api/conversations/start', { profile_id: b.profileId }),
    );
    const url = `/api/conversations/${started.conversation_id}/messages`;
    expect((await a.browser.post(url, { content: 'first' })).status).toBe(201);
    let status = 0;
    const sending = await log.during(async () => {
      status = (await a.browser.post(url, { content: 'second' })).status;
    });
    expect(status).toBe(201);
    expect(sending.length, sending.join('\n')).toBeLessThanOrEqual(budget.send[dialect]);
  });
});
