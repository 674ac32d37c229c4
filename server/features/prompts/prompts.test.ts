import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchResult, UsersProfileResponse } from '../../contract/discovery.ts';
import type { ProfileSavedResponse } from '../../contract/profileSaved.ts';
import type { OwnProfileResponse } from '../../contract/profiles.ts';
import { promptCatalog, type PromptListResponse } from '../../contract/prompts.ts';
import { signUpVerified } from '../../test/accounts.ts';
import { Browser, json } from '../../test/browser.ts';
import { jpegWithGps } from '../../test/images.ts';
import { createPerson, type Person } from '../../test/people.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';

const fields = { name: 'Вера', age: '29', gender: 'Female', city: 'Москва', latitude: '55.75', longitude: '37.61' };
const weekendRu = 'Мой идеальный выходной…';
const weekendEn = 'My ideal weekend…';
const lookingForEn = "I'm looking for…";

function profileForm(extra: Record<string, string>, photo: Buffer): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries({ ...fields, ...extra })) data.append(key, value);
  data.append('photos', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'p.jpg');
  return data;
}

/** Answers that must each be refused, with what makes them wrong. */
const badLists: [string, unknown][] = [
  ['four prompts', [1, 2, 3, 4].map((id) => ({ prompt_id: id, answer: 'да' }))],
  ['an unknown prompt', [{ prompt_id: 9999, answer: 'да' }]],
  ['a fractional id', [{ prompt_id: 1.5, answer: 'да' }]],
  [
    'a repeated prompt',
    [
      { prompt_id: 2, answer: 'один' },
      { prompt_id: 2, answer: 'два' },
    ],
  ],
  ['a blank answer', [{ prompt_id: 1, answer: '   ' }]],
  ['an answer of 201 characters', [{ prompt_id: 1, answer: 'я'.repeat(201) }]],
  ['a missing answer', [{ prompt_id: 1 }]],
  ['an extra key', [{ prompt_id: 1, answer: 'да', question: 'чужой вопрос' }]],
  ['not a list', { prompt_id: 1, answer: 'да' }],
];

describe.each(testDialects())('profile prompts on %s', (dialect) => {
  let app: TestApp;
  let photo: Buffer;
  beforeAll(async () => {
    app = await createTestApp(dialect);
    photo = await jpegWithGps();
  });
  afterAll(async () => {
    await app.close();
  });

  const storedPromptsOf = async (profileId: number) =>
    (
      await app.database.db
        .selectFrom('profiles')
        .select('prompts')
        .where('id', '=', profileId as never)
        .executeTakeFirstOrThrow()
    ).prompts;

  const matchUp = async (a: Person, b: Person) => {
    expect((await a.browser.post('/api/like', { profile_id: b.profileId })).status).toBe(200);
    expect(await json(await b.browser.post('/api/like', { profile_id: a.profileId }))).toMatchObject({ match: true });
  };

  it('lists at least 30 prompts with unique ids, in the reader’s language', async () => {
    const ru = await createPerson(app);
    const en = await createPerson(app, { language: 'en' });
    const inRussian = await json<PromptListResponse>(await ru.browser.get('/api/prompts'));
    const inEnglish = await json<PromptListResponse>(await en.browser.get('/api/prompts'));
    expect(inRussian.length).toBeGreaterThanOrEqual(30);
    expect(new Set(inRussian.map((p) => p.id)).size).toBe(inRussian.length);
    expect(inEnglish.map((p) => p.id)).toEqual(inRussian.map((p) => p.id));
    expect(inRussian.find((p) => p.id === 1)?.text).toBe(weekendRu);
    expect(inEnglish.find((p) => p.id === 1)?.text).toBe(weekendEn);
    // Every text is a real translation, never a key shown as is, and the two languages differ.
    for (const [i, prompt] of inRussian.entries()) {
      expect(prompt.text).not.toMatch(/^prompts\./);
      expect(prompt.text).not.toBe(inEnglish[i]?.text);
    }
    // Before signing in: the browser's language.
    const anonymous = await json<PromptListResponse>(
      await new Browser(app.url).get('/api/prompts', { 'Accept-Language': 'en-GB,en;q=0.9' }),
    );
    expect(anonymous).toEqual(inEnglish);
  });

  it('creates a profile with prompts sent as a JSON field of the form, answers trimmed, in order', async () => {
    const { browser } = await signUpVerified(app);
    const prompts = [
      { prompt_id: 2, answer: '  Того, с кем можно молчать  ' },
      { prompt_id: 1, answer: 'Горы и термос чая' },
    ];
    const res = await browser.postForm('/api/create_profile', profileForm({ prompts: JSON.stringify(prompts) }, photo));
    expect(res.status).toBe(201);
    const { profile } = await json<ProfileSavedResponse>(res);
    expect(profile.prompts).toEqual([
      { prompt_id: 2, question: 'Я ищу…', answer: 'Того, с кем можно молчать' },
      { prompt_id: 1, question: weekendRu, answer: 'Горы и термос чая' },
    ]);
    expect((await json<OwnProfileResponse>(await browser.get('/api/profile'))).prompts).toEqual(profile.prompts);
    expect((await json<OwnProfileResponse>(await browser.get('/api/edit_profile'))).prompts).toEqual(profile.prompts);
  });

  it('creates a profile without prompts: an empty list', async () => {
    const { browser } = await signUpVerified(app);
    const res = await browser.postForm('/api/create_profile', profileForm({}, photo));
    expect(res.status).toBe(201);
    expect((await json<ProfileSavedResponse>(res)).profile.prompts).toEqual([]);
  });

  it('refuses bad prompts at creation with 400 and creates nothing', async () => {
    const { browser, userId } = await signUpVerified(app);
    const cases: [string, string][] = [
      ...badLists.map(([what, list]): [string, string] => [what, JSON.stringify(list)]),
      ['text that is not JSON', '[{'],
    ];
    // A JSON escape can spell what the form's text itself does not hold: NUL, a lone surrogate.
    cases.push(
      ['a NUL spelled as an escape', '[{"prompt_id": 1, "answer": "a\\u0000b"}]'],
      ['a lone surrogate', '[{"prompt_id": 1, "answer": "a\\ud800"}]'],
    );
    for (const [what, text] of cases) {
      const res = await browser.postForm('/api/create_profile', profileForm({ prompts: text }, photo));
      expect(res.status, what).toBe(400);
      const body = await json<{ error: string; code: string; fields?: Record<string, string> }>(res);
      expect(body.code, what).toBe('invalid_input');
      expect(typeof body.error).toBe('string');
      expect(
        Object.keys(body.fields ?? {}).some((key) => key.startsWith('prompts')),
        what,
      ).toBe(true);
    }
    const row = await app.database.db
      .selectFrom('profiles')
      .select('id')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it('edits prompts by JSON and by multipart: replaced whole, kept when left out, cleared with []', async () => {
    const { browser } = await signUpVerified(app);
    const created = await browser.postForm(
      '/api/create_profile',
      profileForm({ prompts: JSON.stringify([{ prompt_id: 1, answer: 'Лес' }]) }, photo),
    );
    expect(created.status).toBe(201);

    const replaced = await json<ProfileSavedResponse>(
      await browser.post('/api/edit_profile', {
        prompts: [
          { prompt_id: 3, answer: 'Пирог' },
          { prompt_id: 1, answer: ' Море ' },
          { prompt_id: 5, answer: 'Честность' },
        ],
      }),
    );
    expect(replaced.profile.prompts.map((p) => [p.prompt_id, p.answer])).toEqual([
      [3, 'Пирог'],
      [1, 'Море'],
      [5, 'Честность'],
    ]);

    // Another field alone leaves the prompts as they are.
    const renamed = await json<ProfileSavedResponse>(await browser.post('/api/edit_profile', { name: 'Вероника' }));
    expect(renamed.profile.prompts).toEqual(replaced.profile.prompts);

    const form = new FormData();
    form.append('prompts', JSON.stringify([{ prompt_id: 7, answer: 'Я прыгала с парашютом' }]));
    const multipart = await browser.postForm('/api/edit_profile', form);
    expect(multipart.status).toBe(200);
    expect((await json<ProfileSavedResponse>(multipart)).profile.prompts.map((p) => p.prompt_id)).toEqual([7]);

    const cleared = await json<ProfileSavedResponse>(await browser.post('/api/edit_profile', { prompts: [] }));
    expect(cleared.profile.prompts).toEqual([]);
  });

  it('refuses bad prompts on edit with 400 and changes nothing, not even the other fields sent', async () => {
    const { browser } = await signUpVerified(app);
    const created = await json<ProfileSavedResponse>(
      await browser.postForm(
        '/api/create_profile',
        profileForm({ prompts: JSON.stringify([{ prompt_id: 4, answer: 'Кофе' }]) }, photo),
      ),
    );
    const before = await storedPromptsOf(created.profile.id);
    for (const [what, list] of badLists) {
      const res = await browser.post('/api/edit_profile', { name: 'Другое имя', prompts: list });
      expect(res.status, what).toBe(400);
      expect((await json<{ code: string }>(res)).code, what).toBe('invalid_input');
    }
    const form = new FormData();
    form.append('prompts', 'not json');
    expect((await browser.postForm('/api/edit_profile', form)).status).toBe(400);
    expect(await storedPromptsOf(created.profile.id)).toBe(before);
    expect((await json<OwnProfileResponse>(await browser.get('/api/profile'))).name).toBe('Вера');
  });

  it('puts the prompts on the search card with the questions in the reader’s language', async () => {
    const reader = await createPerson(app, { gender: 'Male', language: 'en', at: [10.5, 20.5] });
    const author = await createPerson(app, {
      at: [10.5, 20.5],
      prompts: [
        { prompt_id: 1, answer: 'Горы' },
        { prompt_id: 2, answer: 'Тепло' },
      ],
    });
    const card = await json<SearchResult>(await reader.browser.get('/api/search'));
    expect(card.profile_id).toBe(author.profileId);
    expect(card.prompts).toEqual([
      { prompt_id: 1, question: weekendEn, answer: 'Горы' },
      { prompt_id: 2, question: lookingForEn, answer: 'Тепло' },
    ]);
  });

  it('gives a card without prompts an empty list, and leaves out an answer to a prompt no longer offered', async () => {
    const reader = await createPerson(app, { gender: 'Male', at: [-30.5, 140.5] });
    const author = await createPerson(app, { at: [-30.5, 140.5] });
    expect((await json<SearchResult>(await reader.browser.get('/api/search'))).prompts).toEqual([]);
    // As stored before a prompt left the catalogue: its answer is skipped, the others stay.
    const retired = Math.max(...promptCatalog.map((p) => p.id)) + 1;
    await app.database.db
      .updateTable('profiles')
      .set({
        prompts: JSON.stringify([
          { prompt_id: retired, answer: 'старый' },
          { prompt_id: 1, answer: 'новый' },
        ]),
      })
      .where('id', '=', author.profileId)
      .execute();
    expect((await json<SearchResult>(await reader.browser.get('/api/search'))).prompts).toEqual([
      { prompt_id: 1, question: weekendRu, answer: 'новый' },
    ]);
  });

  it('shows a match’s and a liker’s prompts in /api/users_profile and /api/users_profile_liker', async () => {
    const reader = await createPerson(app, { gender: 'Male', premium: true, language: 'en' });
    const match = await createPerson(app, { prompts: [{ prompt_id: 1, answer: 'Дача' }] });
    const liker = await createPerson(app, { prompts: [{ prompt_id: 2, answer: 'Друга' }] });
    await matchUp(reader, match);
    expect((await liker.browser.post('/api/like', { profile_id: reader.profileId })).status).toBe(200);

    const matched = await json<UsersProfileResponse>(
      await reader.browser.get(`/api/users_profile?profile_id=${match.profileId}`),
    );
    expect(matched.users_profile.prompts).toEqual([{ prompt_id: 1, question: weekendEn, answer: 'Дача' }]);
    const liked = await json<UsersProfileResponse>(
      await reader.browser.get(`/api/users_profile_liker?profile_id=${liker.profileId}`),
    );
    expect(liked.users_profile.prompts).toEqual([{ prompt_id: 2, question: lookingForEn, answer: 'Друга' }]);
  });

  it('hides prompts wherever the profile is hidden: private mode, blocks either way, bans', async () => {
    const viewer = await createPerson(app, { gender: 'Male', at: [40.5, -100.5] });
    const secret = 'никому не видно';
    const shy = await createPerson(app, {
      at: [40.5, -100.5],
      privateMode: true,
      prompts: [{ prompt_id: 1, answer: secret }],
    });
    // Private mode: never a card (the viewer has not been liked by them), however far the deck goes.
    const shown: number[] = [];
    for (;;) {
      const res = await viewer.browser.get(`/api/search?exclude=${shown.join(',')}`);
      const text = await res.text();
      expect(text).not.toContain(secret);
      if (res.status === 404) break;
      shown.push((JSON.parse(text) as SearchResult).profile_id);
    }
    expect(shown).not.toContain(shy.profileId);

    const blocked = await createPerson(app, { prompts: [{ prompt_id: 1, answer: secret }] });
    const blocker = await createPerson(app, { prompts: [{ prompt_id: 1, answer: secret }] });
    const banned = await createPerson(app, { prompts: [{ prompt_id: 1, answer: secret }] });
    for (const other of [blocked, blocker, banned]) await matchUp(viewer, other);
    expect((await viewer.browser.post('/api/block', { profile_id: blocked.profileId })).status).toBe(200);
    expect((await blocker.browser.post('/api/block', { profile_id: viewer.profileId })).status).toBe(200);
    await app.database.db
      .updateTable('users')
      .set({ banned_at: app.clock.now().toISOString() })
      .where('id', '=', banned.userId)
      .execute();
    for (const other of [blocked, blocker, banned]) {
      const res = await viewer.browser.get(`/api/users_profile?profile_id=${other.profileId}`);
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain(secret);
    }
    // A liker profile is hidden from a premium reader the same way once blocked.
    const premium = await createPerson(app, { gender: 'Male', premium: true });
    const hiddenLiker = await createPerson(app, { prompts: [{ prompt_id: 1, answer: secret }] });
    expect((await hiddenLiker.browser.post('/api/like', { profile_id: premium.profileId })).status).toBe(200);
    expect((await hiddenLiker.browser.post('/api/block', { profile_id: premium.profileId })).status).toBe(200);
    const likerRes = await premium.browser.get(`/api/users_profile_liker?profile_id=${hiddenLiker.profileId}`);
    expect(likerRes.status).toBe(404);
    expect(await likerRes.text()).not.toContain(secret);
  });
});
