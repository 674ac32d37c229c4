import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import en from '../../../locales/en.json' with { type: 'json' };
import ru from '../../../locales/ru.json' with { type: 'json' };
import { createLogger } from '../../logger.ts';
import { createLogMailer, createSmtpMailer } from '../../mail/mailer.ts';
import { json } from '../../test/browser.ts';
import { createPerson, type Person, type PersonOptions } from '../../test/people.ts';
import { SmtpStandIn, type ReceivedMail } from '../../test/smtpStandIn.ts';
import { compiledArgs } from '../../test/compiledCommands.ts';
import { createTestApp, testSessionSecret, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';
import { defaultNotifyGraceSeconds, emailConversationWindowSeconds, emailUnreadSeconds } from './queue.ts';
import { UnsubscribeTokens } from './unsubscribeTokens.ts';
import { claimLeaseSeconds, NotificationWorker } from './worker.ts';

const publicUrl = 'https://iskra.example';
const root = path.resolve(import.meta.dirname, '../../..');

describe.each(testDialects())('notification e-mails to web-only users on %s', (dialect) => {
  let app: TestApp;
  /** The worker's own SMTP server on loopback (the app's mails, such as codes, go to app.smtp). */
  let smtp: SmtpStandIn;
  let smtpUrl: string;
  const workerWith = (dailyCap = 5) =>
    new NotificationWorker(app.database.db, undefined, app.clock, createLogger('silent'), {
      mailer: createSmtpMailer(smtpUrl, 'Iskra <no-reply@iskra.test>'),
      publicUrl,
      unsubscribeToken: (userId) => new UnsubscribeTokens(testSessionSecret).issue(userId),
      dailyCap,
    });
  let worker: NotificationWorker;

  beforeEach(async () => {
    app = await createTestApp(dialect);
    smtp = new SmtpStandIn();
    smtpUrl = await smtp.start();
    worker = workerWith();
  });
  afterEach(async () => {
    await smtp.stop();
    await app.close();
  });

  /** A person who signed up on the web (verified e-mail, no Telegram), in their language. */
  async function webPerson(
    options: PersonOptions & { language?: 'ru' | 'en' } = {},
  ): Promise<Person & { email: string }> {
    const person = await createPerson(app, options);
    await app.database.db
      .updateTable('users')
      .set({ language: options.language ?? 'ru' })
      .where('id', '=', person.userId)
      .execute();
    const { email } = await app.database.db
      .selectFrom('users')
      .select('email')
      .where('id', '=', person.userId)
      .executeTakeFirstOrThrow();
    return { ...person, email: email ?? '' };
  }
  const mailsTo = (p: { email: string }) => smtp.mailsTo(p.email);
  async function match(a: Person, b: Person): Promise<void> {
    await a.browser.post('/api/like', { profile_id: b.profileId });
    await b.browser.post('/api/like', { profile_id: a.profileId });
  }
  /** A match whose conversation B starts (so B has seen the match: only A's match e-mail is due). */
  async function conversation(a: Person, b: Person): Promise<number> {
    await match(a, b);
    return (
      await json<{ conversation_id: number }>(
        await b.browser.post('/api/conversations/start', { profile_id: a.profileId }),
      )
    ).conversation_id;
  }
  const send = (from: Person, id: number, content: string) =>
    from.browser.post(`/api/conversations/${id}/messages`, { content });
  const unsubscribePath = (mail: ReceivedMail) =>
    new URL(/^<([^>]+)>/.exec(mail.headers['list-unsubscribe'] ?? '')?.[1] ?? 'https://x/').pathname;
  const emailSetting = async (p: Person) =>
    (await json<{ email_notifications: boolean }>(await p.browser.get('/api/settings'))).email_notifications;
  /** What a mail client does for RFC 8058: a POST with the one-click body, no cookie, no CSRF token. */
  const oneClick = (mail: ReceivedMail) =>
    fetch(`${app.url}${unsubscribePath(mail)}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });

  it('mails a new match to each web-only side once, in their language, with a link into the app and a one-click unsubscribe', async () => {
    const anton = await webPerson({ gender: 'Male', name: 'Антон', language: 'ru' });
    const bella = await webPerson({ name: 'Bella', language: 'en' });
    await match(anton, bella);
    // The app gets its grace period to show the match first.
    expect(await worker.drainOnce()).toBe(0);
    app.clock.advance(defaultNotifyGraceSeconds + 1);
    expect(await worker.drainOnce()).toBe(2);
    expect(await worker.drainOnce()).toBe(0);
    const [toAnton] = mailsTo(anton);
    const [toBella] = mailsTo(bella);
    expect(mailsTo(anton)).toHaveLength(1);
    expect(mailsTo(bella)).toHaveLength(1);
    expect(toAnton?.subject).toBe(ru.mail.notify.matchSubject.replace('{{name}}', 'Bella'));
    expect(toBella?.subject).toBe(en.mail.notify.matchSubject.replace('{{name}}', 'Антон'));
    expect(toBella?.text).toContain(`${publicUrl}/UsersProfile/${anton.profileId}`);
    expect(toBella?.html).toContain(`href="${publicUrl}/UsersProfile/${anton.profileId}"`);
    // RFC 8058: an https URL to POST to, and the header that says one POST is enough.
    expect(toBella?.headers['list-unsubscribe']).toMatch(
      new RegExp(`^<${publicUrl}/api/email/unsubscribe/${bella.userId}\\.[\\w-]{43}>$`),
    );
    expect(toBella?.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(toBella?.text).toContain(`${publicUrl}${unsubscribePath(toBella as ReceivedMail)}`);
    // The other person's address never appears in the mail.
    expect(JSON.stringify(toBella)).not.toContain(anton.email);
  });

  it('mails a message left unread for 30 minutes once, and at most one per conversation in 6 hours', async () => {
    const a = await webPerson({ gender: 'Male', name: 'Антон' });
    const b = await webPerson({ name: 'Белла' });
    const id = await conversation(a, b);
    app.clock.advance(defaultNotifyGraceSeconds + 1);
    await worker.drainOnce();
    const before = mailsTo(b).length;
    expect((await send(a, id, 'первое')).status).toBe(201);
    expect((await send(a, id, 'второе, поновее')).status).toBe(201);
    app.clock.advance(emailUnreadSeconds - 60);
    expect(await worker.drainOnce()).toBe(0);
    app.clock.advance(61);
    expect(await worker.drainOnce()).toBe(1);
    const messages = mailsTo(b).slice(before);
    expect(messages).toHaveLength(1);
    expect(messages[0]?.subject).toBe(ru.mail.notify.messageSubject.replace('{{name}}', 'Антон'));
    // It tells of the newest message while it waited, and opens the chat.
    expect(messages[0]?.text).toContain('второе, поновее');
    expect(messages[0]?.text).toContain(`${publicUrl}/chat/${id}`);

    // Later messages in the 6 hours: no second e-mail about this conversation.
    app.clock.advance(60 * 60);
    await send(a, id, 'ещё одно');
    app.clock.advance(emailUnreadSeconds + 1);
    await worker.drainOnce();
    app.clock.advance(3 * 60 * 60);
    await send(a, id, 'и ещё');
    app.clock.advance(emailUnreadSeconds + 1);
    await worker.drainOnce();
    expect(mailsTo(b).slice(before)).toHaveLength(1);

    // Past the window, an unread message is mailed again.
    app.clock.advance(emailConversationWindowSeconds - 5 * 60 * 60);
    await send(a, id, 'через шесть часов');
    app.clock.advance(emailUnreadSeconds + 1);
    expect(await worker.drainOnce()).toBe(1);
    expect(
      mailsTo(b)
        .slice(before)
        .map((m) => m.text.includes('через шесть часов')),
    ).toEqual([false, true]);
  });

  it('sends nothing when the message was read within the 30 minutes', async () => {
    const a = await webPerson({ gender: 'Male', name: 'Антон' });
    const b = await webPerson({ name: 'Белла' });
    const id = await conversation(a, b);
    app.clock.advance(defaultNotifyGraceSeconds + 1);
    await worker.drainOnce();
    const before = mailsTo(b).length;
    await send(a, id, 'прочитано вовремя');
    app.clock.advance(20 * 60);
    expect((await b.browser.get(`/api/conversations/${id}/messages`)).status).toBe(200);
    app.clock.advance(emailUnreadSeconds);
    expect(await worker.drainOnce()).toBe(1); // settled as stale, not sent
    expect(mailsTo(b).slice(before)).toEqual([]);
  });

  it('makes no notification e-mails when mail only goes to the log (no SMTP_URL): names and message previews stay out of it', async () => {
    const logged = await createTestApp(dialect, { mailer: createLogMailer(createLogger('silent')) });
    try {
      const person = (options: PersonOptions) => createPerson(logged, options);
      const a = await person({ gender: 'Male', name: 'Антон' });
      const b = await person({ name: 'Белла' });
      await a.browser.post('/api/like', { profile_id: b.profileId });
      await b.browser.post('/api/like', { profile_id: a.profileId });
      const start = await b.browser.post('/api/conversations/start', { profile_id: a.profileId });
      const id = (await json<{ conversation_id: number }>(start)).conversation_id;
      expect((await b.browser.post(`/api/conversations/${id}/messages`, { content: 'секретное слово' })).status).toBe(
        201,
      );
      const jobs = await logged.database.db
        .selectFrom('notification_jobs')
        .select('id')
        .where('channel', '=', 'email')
        .execute();
      expect(jobs).toEqual([]);
    } finally {
      await logged.close();
    }
  });

  it('keeps the unsubscribe token out of the request log (it never expires: whoever reads the log could use it)', async () => {
    const a = await webPerson({ gender: 'Male', name: 'Антон' });
    const b = await webPerson({ name: 'Белла', language: 'en' });
    await match(a, b);
    app.clock.advance(defaultNotifyGraceSeconds + 1);
    await worker.drainOnce();
    const [mail] = mailsTo(b);
    if (!mail) throw new Error('no match e-mail');
    const token = unsubscribePath(mail).split('/').pop() ?? 'missing';
    expect((await fetch(`${app.url}${unsubscribePath(mail)}`)).status).toBe(200);
    expect((await oneClick(mail)).status).toBe(200);
    const log = app.logs.join('');
    expect(log).toContain('"path":"/api/email/unsubscribe/');
    expect(log).not.toContain(token.split('.')[1] ?? 'missing');
  });

  it('stops mailing someone who unsubscribed with the one-click POST; the link page alone (GET) changes nothing', async () => {
    const a = await webPerson({ gender: 'Male', name: 'Антон' });
    const b = await webPerson({ name: 'Белла', language: 'en' });
    const c = await webPerson({ gender: 'Male', name: 'Вадим' });
    await match(a, b);
    app.clock.advance(defaultNotifyGraceSeconds + 1);
    await worker.drainOnce();
    const [mail] = mailsTo(b);
    if (!mail) throw new Error('no match e-mail');

    const page = await fetch(`${app.url}${unsubscribePath(mail)}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(en.mail.unsubscribe.question);
    expect(html).toContain('<form method="post">');
    expect(await emailSetting(b)).toBe(true);

    // A forged or altered token changes nothing.
    const forged = await fetch(`${app.url}/api/email/unsubscribe/${b.userId}.${'A'.repeat(43)}`, { method: 'POST' });
    expect(forged.status).toBe(404);
    expect(await forged.json()).toMatchObject({ code: 'unsubscribe_link_invalid' });
    expect(await emailSetting(b)).toBe(true);

    const done = await oneClick(mail);
    expect(done.status).toBe(200);
    expect(await done.text()).toContain(en.mail.unsubscribe.done);
    expect(await emailSetting(b)).toBe(false);

    // A new match and an unread message: nothing for B, while C (still subscribed) hears of the match.
    await match(c, b);
    const id = (
      await json<{ conversation_id: number }>(
        await a.browser.post('/api/conversations/start', { profile_id: b.profileId }),
      )
    ).conversation_id;
    expect((await send(a, id, 'привет')).status).toBe(201);
    app.clock.advance(emailUnreadSeconds + 1);
    await worker.drainOnce();
    expect(mailsTo(c)).toHaveLength(1);
    expect(mailsTo(b)).toHaveLength(1);
    // Turned back on in the menu, they hear again.
    expect(
      await json<{ email_notifications: boolean }>(
        await b.browser.post('/api/settings', { email_notifications: true }),
      ),
    ).toMatchObject({
      email_notifications: true,
      notifications: true,
    });
  });

  it('holds the daily cap across conversations', async () => {
    const me = await webPerson({ name: 'Белла' });
    const others = [];
    for (let i = 0; i < 3; i++) others.push(await webPerson({ gender: 'Male', name: `Кавалер${i}` }));
    const capped = workerWith(2);
    for (const other of others) await match(other, me);
    app.clock.advance(defaultNotifyGraceSeconds + 1);
    await capped.drainOnce();
    expect(mailsTo(me)).toHaveLength(2);
    // A day later the cap has room again.
    app.clock.advance(86_400);
    const late = await webPerson({ gender: 'Male', name: 'Поздний' });
    await match(late, me);
    app.clock.advance(defaultNotifyGraceSeconds + 1);
    await capped.drainOnce();
    expect(mailsTo(me)).toHaveLength(3);
  });

  it('mails no one who has Telegram linked (the bot tells them)', async () => {
    const a = await webPerson({ gender: 'Male', name: 'Антон' });
    const b = await webPerson({ name: 'Белла' });
    await app.database.db.updateTable('users').set({ telegram_id: '987654321' }).where('id', '=', b.userId).execute();
    await match(a, b);
    app.clock.advance(defaultNotifyGraceSeconds + 1);
    await worker.drainOnce();
    expect(mailsTo(a)).toHaveLength(1);
    expect(mailsTo(b)).toHaveLength(0);
  });

  it('never mails twice when the worker is killed (SIGKILL) after the mail left and before it was marked sent', async () => {
    const a = await webPerson({ gender: 'Male', name: 'Антон' });
    const b = await webPerson({ name: 'Белла' });
    const id = await conversation(a, b);
    app.clock.advance(defaultNotifyGraceSeconds + 1);
    await worker.drainOnce();
    const before = mailsTo(b).length;
    await send(a, id, 'письмо, которое не должно прийти дважды');
    app.clock.advance(emailUnreadSeconds + 1);

    // A worker in a process of its own; the SMTP server has the whole mail when the process is killed, so
    // the process never learns it was accepted and never marks it.
    const child = spawn(process.execPath, await compiledArgs('notificationWorker'), {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? '',
        DATA_DIR: app.database.dataDir,
        ...(app.database.schema ? { TEST_DATABASE_URL: app.database.url ?? '', SCHEMA: app.database.schema } : {}),
        SMTP_URL: smtpUrl,
        SESSION_SECRET: testSessionSecret,
        NOW: app.clock.now().toISOString(),
      },
    });
    let output = '';
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    const exited = once(child, 'exit');
    const arrived = new Promise<void>((resolve) => {
      smtp.beforeAccept = () => {
        process.kill(child.pid ?? 0, 'SIGKILL');
        resolve();
      };
    });
    await Promise.race([
      arrived,
      exited.then(() => Promise.reject(new Error(`worker exited before mailing: ${output}`))),
    ]);
    const [, signal] = (await exited) as [number | null, string | null];
    expect(signal).toBe('SIGKILL');
    smtp.beforeAccept = undefined;
    expect(mailsTo(b).slice(before)).toHaveLength(1);

    // Its claim runs out; the next drain finds the job half-done and settles it instead of mailing again.
    app.clock.advance(claimLeaseSeconds + 1);
    expect(await worker.drainOnce()).toBe(1);
    app.clock.advance(3600);
    await worker.drainOnce();
    expect(mailsTo(b).slice(before)).toHaveLength(1);
    const job = await app.database.db
      .selectFrom('notification_jobs')
      .select(['outcome'])
      .where('user_id', '=', b.userId)
      .where('channel', '=', 'email')
      .where('kind', '=', 'message')
      .executeTakeFirstOrThrow();
    expect(job.outcome).toBe('interrupted');
  }, 60_000);
});
