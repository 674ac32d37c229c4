import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { Writable } from 'node:stream';
import { Api, type Bot } from 'grammy';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import en from '../../../locales/en.json' with { type: 'json' };
import ru from '../../../locales/ru.json' with { type: 'json' };
import { adminMessenger, reportAlerter } from '../../../bot/admins.ts';
import { createBot } from '../../../bot/bot.ts';
import type { BotContext } from '../../../bot/context.ts';
import { createLogger } from '../../logger.ts';
import { json } from '../../test/browser.ts';
import { createPerson, searchAll, type Person } from '../../test/people.ts';
import { TelegramStandIn, testBotInfo } from '../../test/telegramStandIn.ts';
import { testBotToken } from '../../test/telegramSigning.ts';
import { buttonPress, textMessage } from '../../test/telegramUpdates.ts';
import { compiledArgs } from '../../test/compiledCommands.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';
import { TelegramUserService } from '../telegram/index.ts';
import { AdminService } from './adminService.ts';
import { repeatedOpenerThreshold } from './moderationSignals.ts';

const adminChat = { id: 7_100_000_001, first_name: 'Админ', language_code: 'ru' };
const stranger = { id: 7_100_000_999, first_name: 'Кто-то', language_code: 'ru' };

interface InlineButton {
  text: string;
  callback_data?: string;
}
const buttonsOf = (payload: Record<string, unknown>) =>
  ((payload.reply_markup as { inline_keyboard?: InlineButton[][] } | undefined)?.inline_keyboard ?? []).flat();

let place = 0;
/** A spot of its own, so other tests' people never crowd the search. */
function somewhere(): [number, number] {
  place += 1;
  return [50 + place * 0.5, 120 + (process.pid % 7)];
}

describe.each(testDialects())('admin tools and moderation on %s', (dialect) => {
  let app: TestApp;
  let telegram: TelegramStandIn;
  let bot: Bot<BotContext>;
  let admin: AdminService;

  beforeAll(async () => {
    telegram = new TelegramStandIn();
    await telegram.start();
    const logger = createLogger('silent', new Writable({ write: (_c, _e, cb) => cb() }));
    // The app tells the admins of reports exactly as main.ts wires it, against the Bot API stand-in.
    let alert: (reportId: number) => void = () => undefined;
    app = await createTestApp(dialect, { reportFiled: (id) => alert(id) });
    admin = new AdminService(app.database.db, app.clock);
    alert = reportAlerter(
      adminMessenger(
        new Api(testBotToken, { apiRoot: telegram.apiRoot }),
        [adminChat.id],
        new TelegramUserService(app.database.db, app.clock),
        logger,
      ),
      admin,
      logger,
    );
    bot = createBot({
      token: testBotToken,
      users: new TelegramUserService(app.database.db, app.clock),
      logger,
      publicUrl: 'https://iskra.test',
      apiRoot: telegram.apiRoot,
      botInfo: testBotInfo,
      limits: { perChatIntervalMs: 0, minGapMs: 0 },
      admins: { ids: [adminChat.id], service: admin },
    });
  });
  afterAll(async () => {
    await telegram.stop();
    await app.close();
  });
  beforeEach(() => {
    telegram.calls.length = 0;
  });

  const report = (from: Person, about: Person) =>
    from.browser.post('/api/report', { profile_id: about.profileId, reason: 'fake', comment: 'чужие фото' });
  const visibleTo = async (searcher: Person, target: Person) =>
    (await searchAll(searcher, {}, 40)).some((p) => p.id === target.profileId);
  const openReportsAbout = (target: Person) =>
    app.database.db
      .selectFrom('reports')
      .select(['id', 'resolution'])
      .where('reported_id', '=', target.profileId)
      .where('resolved_at', 'is', null)
      .execute();

  it('holds a profile from search on the third established reporter who matched with it, until an admin dismisses', async () => {
    const at = somewhere();
    const target = await createPerson(app, { gender: 'Female', at });
    const searcher = await createPerson(app, { gender: 'Male', at });
    const reporters = await Promise.all([0, 1, 2].map(() => createPerson(app, { gender: 'Male', at })));
    // Accounts two days old that matched with the person: the evidence that may hold (safety/reportEvidence.ts).
    const twoDaysAgo = new Date(app.clock.now().getTime() - 2 * 86_400_000).toISOString();
    const reporterIds = reporters.map((r) => r.userId);
    await app.database.db.updateTable('users').set({ created_at: twoDaysAgo }).where('id', 'in', reporterIds).execute();
    for (const r of reporters) {
      expect((await r.browser.post('/api/like', { profile_id: target.profileId })).status).toBe(200);
      expect((await target.browser.post('/api/like', { profile_id: r.profileId })).status).toBe(200);
    }
    expect(await visibleTo(searcher, target)).toBe(true);
    for (const r of reporters.slice(0, 2)) expect((await report(r, target)).status).toBe(200);
    // The same person reporting again does not count twice.
    expect((await report(reporters[0] as Person, target)).status).toBe(200);
    expect(await visibleTo(searcher, target)).toBe(true);
    expect((await report(reporters[2] as Person, target)).status).toBe(200);
    expect(await visibleTo(searcher, target)).toBe(false);
    // Still there for people already matched or chatting: only search hides it.
    expect((await target.browser.get('/api/current_user')).status).toBe(200);

    const [first] = await openReportsAbout(target);
    expect(await admin.dismissReport(first?.id ?? 0, 'cli')).toBe(true);
    expect(await admin.dismissReport(first?.id ?? 0, 'cli')).toBe(false);
    expect(await visibleTo(searcher, target)).toBe(true);
  });

  it('sends a new report to the admin chat with Ban and Dismiss; Ban ends the sessions and hides the profile at once', async () => {
    const at = somewhere();
    const target = await createPerson(app, { gender: 'Female', at, name: 'Фейк' });
    const searcher = await createPerson(app, { gender: 'Male', at });
    const reporter = await createPerson(app, { gender: 'Male', at });
    expect((await report(reporter, target)).status).toBe(200);
    const alert = await telegram.waitForCall('sendMessage', (p) => p.chat_id === adminChat.id);
    const [reportRow] = await openReportsAbout(target);
    const reportId = reportRow?.id ?? 0;
    expect(alert.text).toContain(`#${reportId}`);
    expect(alert.text).toContain('Фейк');
    // A fresh account that was never shown the profile: its report reaches the admins, weighing nothing.
    expect(alert.text).toContain(ru.bot.admin.evidence_new_account);
    expect(buttonsOf(alert)).toEqual([
      { text: ru.bot.admin.button_ban, callback_data: `report:ban:${reportId}` },
      { text: ru.bot.admin.button_dismiss, callback_data: `report:dismiss:${reportId}` },
    ]);

    // Someone who is not an admin cannot use the buttons, even by forging the callback.
    await bot.handleUpdate(buttonPress(stranger, `report:ban:${reportId}`));
    expect((await target.browser.get('/api/profile')).status).toBe(200);

    await bot.handleUpdate(buttonPress(adminChat, `report:ban:${reportId}`));
    expect(telegram.callsOf('answerCallbackQuery').at(-1)).toMatchObject({ text: ru.bot.admin.banned });
    expect(String(telegram.callsOf('editMessageText').at(-1)?.text)).toContain(ru.bot.admin.banned);
    const me = await json<{ authorized: boolean }>(await target.browser.get('/api/current_user'));
    expect(me.authorized).toBe(false);
    expect(await visibleTo(searcher, target)).toBe(false);
    expect(await openReportsAbout(target)).toEqual([]);

    // Pressed again (or by a second admin): nothing more happens, and it says so.
    await bot.handleUpdate(buttonPress(adminChat, `report:ban:${reportId}`));
    expect(telegram.callsOf('answerCallbackQuery').at(-1)).toMatchObject({ text: ru.bot.admin.already_decided });
    // The audit log names the admin by the Telegram id that pressed, once.
    const logged = await app.database.db
      .selectFrom('admin_actions')
      .select(['admin', 'action', 'details'])
      .where('target_user_id', '=', target.userId)
      .execute();
    expect(logged).toEqual([
      { admin: `telegram:${adminChat.id}`, action: 'ban', details: JSON.stringify({ report_id: reportId }) },
    ]);
  });

  it('Dismiss in the bot closes the report and leaves the account alone', async () => {
    const at = somewhere();
    const target = await createPerson(app, { gender: 'Female', at });
    const reporter = await createPerson(app, { gender: 'Male', at });
    await report(reporter, target);
    await telegram.waitForCall('sendMessage', (p) => p.chat_id === adminChat.id);
    const [row] = await openReportsAbout(target);
    await bot.handleUpdate(buttonPress(adminChat, `report:dismiss:${row?.id ?? 0}`));
    expect(telegram.callsOf('answerCallbackQuery').at(-1)).toMatchObject({ text: ru.bot.admin.dismissed });
    const closed = await app.database.db
      .selectFrom('reports')
      .select(['resolution', 'resolved_at'])
      .where('id', '=', row?.id ?? 0)
      .executeTakeFirstOrThrow();
    expect(closed.resolution).toBe('dismissed');
    expect(closed.resolved_at).not.toBeNull();
    await expect(json<{ authorized: boolean }>(await target.browser.get('/api/current_user'))).resolves.toMatchObject({
      authorized: true,
    });
  });

  it('/stats answers admins with the day in numbers, and nobody else', async () => {
    await createPerson(app);
    await bot.handleUpdate(textMessage(stranger, '/stats'));
    expect(
      telegram
        .callsOf('sendMessage')
        .filter((p) => p.chat_id === stranger.id)
        .map((p) => String(p.text)),
    ).not.toContainEqual(expect.stringContaining(ru.bot.admin.today_title));
    await bot.handleUpdate(textMessage(adminChat, '/stats'));
    const reply = telegram.callsOf('sendMessage').find((p) => p.chat_id === adminChat.id);
    const users = await app.database.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(String(reply?.text)).toContain(ru.bot.admin.today_title);
    expect(String(reply?.text)).toContain(`Пользователи: ${Number(users.n)}`);
    expect(en.bot.admin.today_title).not.toBe(ru.bot.admin.today_title);
  });

  it('flags a person who opens many conversations with the same line, and not one who writes each', async () => {
    const spammer = await createPerson(app, { gender: 'Male' });
    const writer = await createPerson(app, { gender: 'Male' });
    for (const sender of [spammer, writer]) {
      for (let i = 0; i < repeatedOpenerThreshold; i++) {
        const other = await createPerson(app, { gender: 'Female' });
        await sender.browser.post('/api/like', { profile_id: other.profileId });
        await other.browser.post('/api/like', { profile_id: sender.profileId });
        const start = await json<{ conversation_id: number }>(
          await sender.browser.post('/api/conversations/start', { profile_id: other.profileId }),
        );
        const text =
          sender === spammer ? 'Привет, красотка! Переходи в мой канал' : `Привет! Вижу, ты тоже любишь горы (${i})`;
        expect(
          (await sender.browser.post(`/api/conversations/${start.conversation_id}/messages`, { content: text })).status,
        ).toBe(201);
      }
    }
    const flags = await admin.openFlags();
    expect(flags.filter((f) => f.user_id === spammer.userId).map((f) => f.reason)).toEqual(['repeated_first_message']);
    expect(flags.filter((f) => f.user_id === writer.userId)).toEqual([]);
    expect(await admin.resolveFlag(flags.find((f) => f.user_id === spammer.userId)?.id ?? 0, 'cli')).toBe(true);
  });

  it("grants premium and takes a refunded payment's days back", async () => {
    const person = await createPerson(app);
    const until = await admin.grantPremium(person.userId, 30, 'cli');
    expect(new Date(until).getTime() - app.clock.now().getTime()).toBe(30 * 86_400_000);
    const { id } = await app.database.db
      .insertInto('payments')
      .values({
        user_id: person.userId,
        provider: 'test',
        plan_id: 'month',
        amount: 299,
        currency: 'RUB',
        interval_days: 30,
        idempotence_key: `refund-${dialect}-${person.userId}`,
        provider_payment_id: null,
        status: 'succeeded',
        created_at: until,
        credited_at: until,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const refunded = await admin.refund(id, 'cli');
    expect(refunded.premiumUntil).toBe(app.clock.now().toISOString());
    await expect(admin.refund(id, 'cli')).rejects.toMatchObject({ code: 'payment_not_refundable' });
  });

  it.runIf(dialect === 'sqlite')(
    'npm run admin lists reports, bans by e-mail, and refuses bad input with exit code 64',
    async () => {
      const target = await createPerson(app, { gender: 'Female', name: 'ЧерезКонсоль' });
      const reporter = await createPerson(app, { gender: 'Male' });
      await report(reporter, target);
      const email =
        (
          await app.database.db
            .selectFrom('users')
            .select('email')
            .where('id', '=', target.userId)
            .executeTakeFirstOrThrow()
        ).email ?? '';
      const root = path.resolve(import.meta.dirname, '../../..');
      const cli = async (...args: string[]) => {
        const child = spawn(process.execPath, await compiledArgs('admin', args), {
          cwd: root,
          env: {
            PATH: process.env.PATH ?? '',
            DATA_DIR: app.database.dataDir,
            DATABASE_URL: app.database.description,
            SESSION_SECRET: 'cli-test-secret-that-is-long-enough-0000',
          },
        });
        let out = '';
        child.stdout.on('data', (c: Buffer) => (out += c.toString()));
        child.stderr.on('data', (c: Buffer) => (out += c.toString()));
        const [code] = (await once(child, 'exit')) as [number];
        return { code, lines: out.trim().split('\n') };
      };
      const listed = await cli('reports');
      expect(listed.code).toBe(0);
      expect(
        listed.lines
          .map((l) => JSON.parse(l) as { reported_name: string })
          .some((r) => r.reported_name === 'ЧерезКонсоль'),
      ).toBe(true);
      const banned = await cli('ban', email);
      expect(banned.code).toBe(0);
      expect(JSON.parse(banned.lines.at(-1) ?? '')).toEqual({ userId: target.userId, banned: true });
      expect((await json<{ authorized: boolean }>(await target.browser.get('/api/current_user'))).authorized).toBe(
        false,
      );
      // The CLI's actions are in the audit log as `cli`, and the log is what `/api/admin/audit.csv` exports.
      const logged = await app.database.db
        .selectFrom('admin_actions')
        .select(['admin', 'action'])
        .where('target_user_id', '=', target.userId)
        .execute();
      expect(logged).toEqual([{ admin: 'cli', action: 'ban' }]);
      expect((await cli('grant', email, 'lots')).code).toBe(64);
      const missing = await cli('ban', 'nobody@example.com');
      expect(missing.code).toBe(1);
      expect(missing.lines.join('\n')).toContain('user_not_found');
    },
    120_000,
  );
});
