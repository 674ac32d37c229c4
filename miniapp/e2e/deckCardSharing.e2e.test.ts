import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchDeckCard } from '../src/api/queries/search.ts';
import { nextSessionGeneration } from '../src/api/sessionGeneration.ts';
import { defaultFilters } from '../src/lib/filters.ts';

/**
 * The deck's next-card calls share a request under way (api/queries/search.ts), but only within one
 * session: a card asked for by the member before shown to whoever signed in after would be someone else's
 * answer. Run in Node against the module itself, with `fetch` held by the test.
 */
describe("the deck's shared next-card request", () => {
  const asked: { path: string; answer: (response: Response) => void }[] = [];
  const saved = { fetch: globalThis.fetch, window: Reflect.get(globalThis, 'window') as unknown };

  beforeAll(() => {
    // What the API client reads of a browser: no stored token (storage.ts never throws without
    // localStorage), no early answers from boot.js.
    Reflect.set(globalThis, 'window', globalThis);
    globalThis.fetch = ((path: string) =>
      new Promise<Response>((answer) => asked.push({ path, answer }))) as typeof fetch;
  });
  afterAll(() => {
    globalThis.fetch = saved.fetch;
    Reflect.set(globalThis, 'window', saved.window);
  });

  const noCard = () => new Response(JSON.stringify({ error: 'none', code: 'not_found' }), { status: 404 });

  it('shares one request within a session, not across a sign-in', async () => {
    const filters = defaultFilters;
    const first = fetchDeckCard(filters, []);
    const same = fetchDeckCard(filters, []);
    expect(asked).toHaveLength(1);
    nextSessionGeneration();
    const afterSignIn = fetchDeckCard(filters, []);
    expect(asked).toHaveLength(2);
    expect(asked[1]?.path).toBe(asked[0]?.path);
    for (const request of asked) request.answer(noCard());
    expect(await Promise.all([first, same, afterSignIn])).toEqual([null, null, null]);
  });
});
