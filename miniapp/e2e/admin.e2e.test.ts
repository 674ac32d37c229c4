import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import ru from '../../locales/ru.json' with { type: 'json' };
import { json } from '../../server/test/browser.ts';
import { createPerson, type Person } from '../../server/test/people.ts';
import {
  behaviourLanguages,
  distDir,
  expectAccessible,
  recordApiRequests,
  screenshot,
  screenshotLightAndDark,
  startSite,
  type Site,
  e2eBotToken,
} from './harness.ts';
import { signInitData, signInVerified } from './signedIn.ts';

const texts = { ru, en } as const;
const adminEmail = (language: string) => `moderator.${language}@example.com`;
/** An admin by ADMIN_TELEGRAM_IDS, opening the console inside (faked) Telegram. */
const adminTelegramId = 4343;

describe('the moderation console at /admin', () => {
  let site: Site;
  beforeAll(async () => {
    site = await startSite({ adminEmails: [adminEmail('ru'), adminEmail('en')], adminTelegramIds: [adminTelegramId] });
  });
  afterAll(async () => {
    await site.close();
  });

  it('keeps the console out of the first load: no entry script names it', () => {
    const html = readFileSync(path.join(distDir, 'index.html'), 'utf8');
    const entries = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1] ?? '');
    expect(entries.length).toBeGreaterThan(0);
    for (const file of entries) {
      const code = readFileSync(path.join(distDir, file), 'utf8');
      expect(code, file).not.toContain('/api/admin/');
      expect(code, file).not.toContain('uPlot');
    }
    // Nor its texts: the first-load dictionaries leave out app.admin, a file of its own the console fetches.
    const dictionaries = /name="iskra-locales" content="([^"]+)"/.exec(html)?.[1]?.split(';') ?? [];
    expect(dictionaries).toHaveLength(2);
    for (const pair of dictionaries) {
      const file = pair.split('=')[1] ?? '';
      const dictionary = JSON.parse(readFileSync(path.join(distDir, file), 'utf8')) as { app: Record<string, unknown> };
      expect(dictionary.app.menu, file).toBeDefined();
      expect(dictionary.app.admin, file).toBeUndefined();
    }
  });

  /** A reported person who wrote to the reporter, with a photo held by the upload screen; a pending selfie check. */
  async function seed(language: string) {
    const db = site.app.database.db;
    const reporter = await createPerson(site.app, { gender: 'Male', name: language === 'ru' ? 'Олег' : 'Oliver' });
    const target = await createPerson(site.app, {
      gender: 'Female',
      name: language === 'ru' ? 'Фейковая' : 'Fakeperson',
      photos: 3,
    });
    expect((await reporter.browser.post('/api/like', { profile_id: target.profileId })).status).toBe(200);
    expect((await target.browser.post('/api/like', { profile_id: reporter.profileId })).status).toBe(200);
    const { conversation_id } = await json<{ conversation_id: number }>(
      await target.browser.post('/api/conversations/start', { profile_id: reporter.profileId }),
    );
    const scam = language === 'ru' ? 'Переведи 5000 на карту' : 'Send me 5000 to my card';
    expect(
      (await target.browser.post(`/api/conversations/${conversation_id}/messages`, { content: scam })).status,
    ).toBe(201);
    await db
      .updateTable('photos')
      .set({ moderation: 'held', screen_score: 0.83 })
      .where('profile_id', '=', target.profileId)
      .where('position', '=', 2)
      .execute();
    const reported = await reporter.browser.post('/api/report', {
      profile_id: target.profileId,
      reason: 'fake',
      comment: language === 'ru' ? 'Просит деньги' : 'Asks for money',
    });
    expect(reported.status).toBe(200);

    const selfieOwner = await createPerson(site.app, { name: language === 'ru' ? 'Селфи' : 'Selfie', photos: 2 });
    const uploads = path.join(site.app.database.dataDir, 'uploads');
    mkdirSync(uploads, { recursive: true });
    const selfie = `${String(selfieOwner.profileId).padStart(8, '0')}${'e'.repeat(24)}.jpg`;
    // The placeholder photo stands in for a selfie: a real JPEG the page can show.
    writeFileSync(
      path.join(uploads, selfie),
      readFileSync(path.join(import.meta.dirname, '../../server/assets/default.jpg')),
    );
    const check = await db
      .insertInto('photo_verifications')
      .values({
        profile_id: selfieOwner.profileId,
        status: 'pending',
        pose_id: 'turn_left',
        selfie_name: selfie,
        similarity: 0.66,
        pose_ok: 1,
        faces: 1,
        reason: 'review',
        created_at: site.app.clock.now().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // A test-provider payment of the reported person (it moved no money: a refund only marks it).
    const payment = await db
      .insertInto('payments')
      .values({
        user_id: target.userId,
        provider: 'test',
        plan_id: 'month',
        amount: 299,
        currency: 'RUB',
        interval_days: 30,
        idempotence_key: `e2e-refund-${language}-${target.userId}`,
        provider_payment_id: null,
        status: 'succeeded',
        created_at: site.app.clock.now().toISOString(),
        credited_at: site.app.clock.now().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { reporter, target, scam, selfieOwner, checkId: check.id, paymentId: payment.id };
  }

  const authorized = async (person: Person) =>
    (await json<{ authorized: boolean }>(await person.browser.get('/api/current_user'))).authorized;

  for (const language of behaviourLanguages) {
    it(`lets an admin ban from a report, approve a selfie and find both in the audit log (${language})`, async () => {
      const t = texts[language].app.admin;
      const { target, scam, selfieOwner, checkId, paymentId } = await seed(language);
      const { context, page, errors } = await site.page({
        language,
        prepare: (context) => signInVerified(site, context, adminEmail(language)),
      });
      const requests = recordApiRequests(page);
      await page.goto('/Menu');
      await page.getByRole('link', { name: texts[language].app.menu.moderation }).click();
      await page.waitForURL('**/admin');
      await page.getByRole('heading', { name: t.title }).waitFor();

      // The report: the reported person's three photos (one held, marked), the reporter's comment, the chat.
      const item = page.locator('li[data-report]').filter({ hasText: scam });
      await item.waitFor();
      await expect.poll(() => item.locator('.admin-photos img').count()).toBe(3);
      await item.locator('.admin-photos li.held').waitFor();
      await item.getByText(language === 'ru' ? 'Просит деньги' : 'Asks for money').waitFor();
      await expectAccessible(page, `admin reports ${language}`);
      await screenshotLightAndDark(page, `admin-reports-${language}`);
      expect(requests.calls()).toContain('GET /api/admin/reports');

      await item.getByLabel(t.reasonPlaceholder).fill(language === 'ru' ? 'мошенничество' : 'scam');
      await item.getByRole('button', { name: t.reports.ban, exact: true }).click();
      // A ban is asked once more: the tap alone bans no one.
      const confirm = page.getByRole('dialog', { name: t.reports.ban });
      await confirm.getByText(t.confirmText).waitFor();
      expect(await authorized(target)).toBe(true);
      await screenshotLightAndDark(page, `admin-confirm-${language}`);
      await confirm.getByRole('button', { name: t.reports.ban, exact: true }).click();
      await expect.poll(() => authorized(target)).toBe(false);
      // The queue is read again: the decided report has left it.
      await item.waitFor({ state: 'detached' });

      // The selfie beside the profile photos, with the model's scores; approve.
      await page.getByRole('tab', { name: t.tabs.verifications }).click();
      const check = page.locator(`li[data-verification="${checkId}"]`);
      await check.waitFor();
      await expect
        .poll(() => check.locator('.admin-selfie img').evaluate((img: HTMLImageElement) => img.naturalWidth))
        .toBeGreaterThan(0);
      await check.getByText('0.66').waitFor();
      await screenshotLightAndDark(page, `admin-verifications-${language}`);
      await check.getByRole('button', { name: t.verifications.approve }).click();
      await check.waitFor({ state: 'detached' });
      const verified = await site.app.database.db
        .selectFrom('profiles')
        .select('verified')
        .where('id', '=', selfieOwner.profileId)
        .executeTakeFirstOrThrow();
      expect(verified.verified).toBe(1);

      // The audit log names this admin for both.
      await page.getByRole('tab', { name: t.tabs.audit }).click();
      const me = `email:${adminEmail(language)}`;
      await page.getByText(`${me} · ${t.actions.verification_approve}`).waitFor();
      await page.getByText(`${me} · ${t.actions.ban}`).first().waitFor();
      await screenshotLightAndDark(page, `admin-audit-${language}`);

      // Stats: five charts, drawn by uPlot (its chunk loads with this tab only).
      await page.getByRole('tab', { name: t.tabs.stats }).click();
      await expect.poll(() => page.locator('.admin-chart canvas').count()).toBe(5);
      // The tab's first read asked for 30 days; the switch must ask for 7.
      const weekly = page.waitForRequest((request) => {
        const url = new URL(request.url());
        return url.pathname === '/api/admin/stats' && url.searchParams.get('days') === '7';
      });
      await page.getByRole('button', { name: t.stats.daysValue.replace('{{count}}', '7') }).click();
      await weekly;
      await screenshotLightAndDark(page, `admin-stats-${language}`);

      // People: the banned person's history, found by profile id.
      await page.getByRole('tab', { name: t.tabs.people }).click();
      await page.getByLabel(t.people.search).fill(String(target.profileId));
      await page.getByRole('button', { name: t.people.find }).click();
      const found = page.locator(`li[data-person="${target.userId}"]`);
      await found.getByRole('button', { name: t.people.unban }).waitFor();
      await screenshot(page, `admin-people-${language}`);

      // A refund that ends no premium answers premium_until null: the console says it is done, no error.
      await found.getByRole('button', { name: t.people.refund, exact: true }).click();
      const refund = page.getByRole('dialog', { name: t.people.refund });
      await refund.getByRole('button', { name: t.people.refund, exact: true }).click();
      await found.getByText(/· refunded ·/).waitFor();
      await found.getByRole('status').filter({ hasText: t.people.refunded }).waitFor();
      expect(await found.locator('.error-line').count()).toBe(0);
      const payment = await site.app.database.db
        .selectFrom('payments')
        .select('status')
        .where('id', '=', paymentId)
        .executeTakeFirstOrThrow();
      expect(payment.status).toBe('refunded');
      await context.close();
      expect(errors).toEqual([]);
    });
  }

  // The behaviour above runs in Russian (harness.ts behaviourLanguages): English's one pass over the console.
  if (!behaviourLanguages.includes('en'))
    it('speaks English on every tab of the console (en)', async () => {
      const t = texts.en.app.admin;
      await seed('en');
      const { context, page, errors } = await site.page({
        language: 'en',
        prepare: (context) => signInVerified(site, context, adminEmail('en')),
      });
      await page.goto('/admin');
      await page.getByRole('heading', { name: t.title }).waitFor();
      for (const tab of ['reports', 'verifications', 'photos', 'people', 'audit', 'stats'] as const) {
        await page.getByRole('tab', { name: t.tabs[tab] }).click();
        await expect
          .poll(() => page.getByRole('tab', { name: t.tabs[tab] }).getAttribute('aria-selected'))
          .toBe('true');
        await expect.poll(() => page.locator('.spinner').count()).toBe(0);
        // No Russian but what people wrote: the Russian run's people and words may still wait in the queues,
        // and the city createPerson gives everyone (with no place to translate it by).
        let text = await page.locator('main').evaluate((main) => (main as HTMLElement).innerText);
        for (const written of ['Москва', 'Олег', 'Фейковая', 'Селфи', 'Модератор', 'Просит деньги', 'мошенничество'])
          text = text.replaceAll(written, '');
        const russian = text.match(/[А-Яа-яЁё][^\n]*/g) ?? [];
        expect(russian, `the ${tab} tab`).toEqual([]);
        await screenshot(page, `admin-${tab}-en`);
      }
      await context.close();
      expect(errors).toEqual([]);
    });

  it('opens in the Mini App for an ADMIN_TELEGRAM_IDS admin, the selfie fetched with the bearer token', async () => {
    const { checkId } = await seed('ru');
    const moderator = await createPerson(site.app, { name: 'Модератор' });
    await site.app.database.db
      .updateTable('users')
      .set({ telegram_id: String(adminTelegramId) })
      .where('id', '=', moderator.userId)
      .execute();
    const { context, page, errors } = await site.page({
      language: 'ru',
      prepare: (context) =>
        // Telegram's Android client as the page sees it: postEvent receives the app's calls.
        context.addInitScript(() => {
          Object.assign(window, { TelegramWebviewProxy: { postEvent: () => undefined } });
        }),
    });
    const initData = await signInitData(e2eBotToken, {
      id: adminTelegramId,
      first_name: 'Модератор',
      language_code: 'ru',
    });
    const launch = new URLSearchParams({
      tgWebAppData: initData,
      tgWebAppVersion: '8.0',
      tgWebAppPlatform: 'android',
      tgWebAppThemeParams: JSON.stringify({
        bg_color: '#17212b',
        text_color: '#f5f5f5',
        hint_color: '#708499',
        button_color: '#5288c1',
        button_text_color: '#ffffff',
        secondary_bg_color: '#232e3c',
      }),
    });
    await page.goto(`/#${launch.toString()}`);
    await page.getByRole('link', { name: ru.app.nav.menu }).click();
    await page.getByRole('link', { name: ru.app.menu.moderation }).click();
    await page.getByRole('tab', { name: ru.app.admin.tabs.verifications }).click();
    const selfie = page.locator(`li[data-verification="${checkId}"] .admin-selfie img`);
    // No cookie here: the selfie's own URL would be a 404; the console fetched it with the token.
    await expect.poll(() => selfie.getAttribute('src')).toMatch(/^blob:/);
    await expect.poll(() => selfie.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    await screenshot(page, 'admin-miniapp-verifications');
    await context.close();
    expect(errors).toEqual([]);
  });

  it('shows members no Moderation entry, and /admin is the not-found page for them', async () => {
    const member = await createPerson(site.app);
    const { context, page, errors } = await site.page({
      language: 'ru',
      prepare: (context) =>
        context.addCookies([
          { name: 'iskra_session', value: member.browser.cookie('iskra_session') ?? '', url: site.app.url },
        ]),
    });
    await page.goto('/Menu');
    await page.getByRole('link', { name: ru.app.menu.training }).waitFor();
    expect(await page.getByRole('link', { name: ru.app.menu.moderation }).count()).toBe(0);
    await page.goto('/admin');
    await page.getByText(ru.app.admin.notAdmin).waitFor();
    expect(await page.getByRole('tab').count()).toBe(0);
    await context.close();
    expect(errors).toEqual([]);
  });
});
