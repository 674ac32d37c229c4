import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import en from '../../../locales/en.json' with { type: 'json' };
import ru from '../../../locales/ru.json' with { type: 'json' };
import { createLogger } from '../../logger.ts';
import { Browser, json } from '../../test/browser.ts';
import { EventStreamClient } from '../../test/eventStream.ts';
import { createPerson, type Person, type PersonOptions } from '../../test/people.ts';
import { PushServiceStandIn, type StandInBrowser } from '../../test/pushServiceStandIn.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';
import { defaultNotifyGraceSeconds, NotificationWorker } from '../notifications/index.ts';
import { WebPushSender } from './sender.ts';
import { PushService, type WebPushSettings } from './service.ts';

describe.each(testDialects())('Web Push on %s', (dialect) => {
  const service = new PushServiceStandIn();
  let settings: WebPushSettings;
  let app: TestApp;
  let worker: NotificationWorker;

  beforeAll(async () => {
    await service.start();
    settings = { subject: 'mailto:ops@iskra.test', endpointOrigins: [service.origin], agent: service.agent };
    app = await createTestApp(dialect, { webPush: settings });
    const logger = createLogger('silent');
    const sender = new WebPushSender(app.database.db, new PushService(app.database.db, app.clock, settings), logger);
    worker = new NotificationWorker(app.database.db, undefined, app.clock, logger, undefined, sender);
  });
  afterAll(async () => {
    await app.close();
    await service.stop();
  });
  beforeEach(async () => {
    // Earlier tests' jobs are settled, whatever they were.
    app.clock.advance(3600);
    await worker.drainOnce();
  });

  async function person(options: PersonOptions & { language?: 'ru' | 'en' } = {}): Promise<Person> {
    const p = await createPerson(app, options);
    await app.database.db
      .updateTable('users')
      .set({ language: options.language ?? 'ru' })
      .where('id', '=', p.userId)
      .execute();
    return p;
  }
  async function subscribed(p: Person): Promise<StandInBrowser> {
    const browser = service.browser();
    expect((await p.browser.post('/api/push/subscriptions', browser.subscription)).status).toBe(200);
    return browser;
  }
  const subscriptionsOf = async (p: Person) =>
    (
      await app.database.db
        .selectFrom('push_subscriptions')
        .select('endpoint')
        .where('user_id', '=', p.userId)
        .execute()
    ).map((r) => r.endpoint);
  async function match(a: Person, b: Person): Promise<void> {
    expect((await a.browser.post('/api/like', { profile_id: b.profileId })).status).toBe(200);
    expect((await b.browser.post('/api/like', { profile_id: a.profileId })).status).toBe(200);
  }
  const afterGrace = async () => {
    app.clock.advance(defaultNotifyGraceSeconds + 1);
    return worker.drainOnce();
  };

  it('gives one VAPID public key (a P-256 point), kept across processes on the database', async () => {
    const first = await json<{ public_key: string }>(await new Browser(app.url).get('/api/push/key'));
    const key = Buffer.from(first.public_key, 'base64url');
    expect([key.length, key[0]]).toEqual([65, 4]);
    // Another process on the same database (its own service, nothing cached) reads the same pair.
    const other = new PushService(app.database.db, app.clock, { subject: settings.subject, endpointOrigins: [] });
    expect(await other.publicKey()).toBe(first.public_key);
  });

  it('stores a browser for the signed-in user, refuses bad input and push services not on the list, and removes it', async () => {
    const anna = await person();
    const browser = service.browser();
    expect((await new Browser(app.url).post('/api/push/subscriptions', browser.subscription)).status).toBe(401);
    const refusals = await Promise.all(
      [
        { ...browser.subscription, endpoint: 'https://evil.example/push/1' },
        { ...browser.subscription, endpoint: `${service.origin.replace('https:', 'http:')}/push/1` },
        { ...browser.subscription, endpoint: 'https://127.0.0.1.evil.example/push/1' },
        { ...browser.subscription, keys: { ...browser.subscription.keys, p256dh: 'AAAA' } },
        // 65 bytes, but no point on P-256: nothing could ever be encrypted to it.
        {
          ...browser.subscription,
          keys: {
            ...browser.subscription.keys,
            p256dh: Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 7)]).toString('base64url'),
          },
        },
        { ...browser.subscription, keys: { p256dh: browser.subscription.keys.p256dh } },
        { endpoint: browser.endpoint },
      ].map(async (body) => {
        const res = await anna.browser.post('/api/push/subscriptions', body);
        return [res.status, (await json<{ code: string }>(res)).code];
      }),
    );
    expect(refusals.map(([status]) => status)).toEqual([400, 400, 400, 400, 400, 400, 400]);
    expect(refusals[0]?.[1]).toBe('push_endpoint_not_allowed');
    expect(refusals[2]?.[1]).toBe('push_endpoint_not_allowed');
    expect(refusals[4]?.[1]).toBe('push_key_invalid');
    expect(await subscriptionsOf(anna)).toEqual([]);

    expect((await anna.browser.post('/api/push/subscriptions', browser.subscription)).status).toBe(200);
    expect(await subscriptionsOf(anna)).toEqual([browser.endpoint]);
    // Someone else signing in on that browser takes it over; Anna's removal of it then touches nothing of theirs.
    const boris = await person({ gender: 'Male' });
    expect((await boris.browser.post('/api/push/subscriptions', browser.subscription)).status).toBe(200);
    expect([await subscriptionsOf(anna), await subscriptionsOf(boris)]).toEqual([[], [browser.endpoint]]);
    expect((await anna.browser.post('/api/push/subscriptions/delete', { endpoint: browser.endpoint })).status).toBe(
      200,
    );
    expect(await subscriptionsOf(boris)).toEqual([browser.endpoint]);
    expect((await boris.browser.post('/api/push/subscriptions/delete', { endpoint: browser.endpoint })).status).toBe(
      200,
    );
    expect(await subscriptionsOf(boris)).toEqual([]);
  });

  it('ends a browser subscription with the session that made it: a sign-out stops the pushes there', async () => {
    const anna = await person();
    const browser = await subscribed(anna);
    expect(await subscriptionsOf(anna)).toEqual([browser.endpoint]);
    expect((await anna.browser.post('/api/logout', {})).status).toBe(200);
    expect(await subscriptionsOf(anna)).toEqual([]);
  });

  it('pushes a match and a message, encrypted for the browser and signed with the VAPID key, after the grace period', async () => {
    const anton = await person({ gender: 'Male', name: 'Антон', language: 'ru' });
    const bella = await person({ name: 'Bella', language: 'en' });
    const phone = await subscribed(bella);
    await match(anton, bella);
    expect(await worker.drainOnce()).toBe(0);
    await afterGrace();
    const [matchPush] = service.to(phone.endpoint);
    expect(service.problems).toEqual([]);
    expect(matchPush?.payload).toEqual({
      kind: 'match',
      title: en.push.matchTitle,
      body: en.push.matchBody_female.replace('{{name}}', 'Антон'),
      url: `/UsersProfile/${anton.profileId}`,
      tag: `match-${anton.profileId}`,
    });
    const { public_key } = await json<{ public_key: string }>(await new Browser(app.url).get('/api/push/key'));
    expect(matchPush?.vapidKey).toBe(public_key);
    expect(matchPush?.claims).toMatchObject({ aud: service.origin, sub: 'mailto:ops@iskra.test' });
    expect(matchPush?.headers.urgency).toBe('high');
    // The Topic header is read by the push service in clear: opaque, never the profile id.
    expect(String(matchPush?.headers.topic)).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(String(matchPush?.headers.topic)).not.toContain('match');

    const { conversation_id } = await json<{ conversation_id: number }>(
      await anton.browser.post('/api/conversations/start', { profile_id: bella.profileId }),
    );
    expect(
      (await anton.browser.post(`/api/conversations/${conversation_id}/messages`, { content: 'Привет! Как дела?' }))
        .status,
    ).toBe(201);
    await afterGrace();
    expect(service.to(phone.endpoint).map((push) => push.payload)).toContainEqual({
      kind: 'message',
      title: 'Антон',
      body: 'Привет! Как дела?',
      url: `/chat/${conversation_id}`,
      tag: `chat-${conversation_id}`,
    });
    // Nothing went to Anton, who subscribed no browser.
    expect(service.received.every((push) => push.endpoint === phone.endpoint)).toBe(true);
  });

  it('pushes nothing for an event the open app showed and acknowledged in time, or with push notifications off', async () => {
    const anton = await person({ gender: 'Male', name: 'Антон' });
    const bella = await person({ name: 'Белла' });
    const phone = await subscribed(bella);
    // Bella's app is open: it shows the match and acknowledges its event (what the match overlay does).
    const events = await EventStreamClient.open(`${app.url}/api/events`, {
      Cookie: `iskra_session=${bella.browser.cookie('iskra_session') ?? ''}`,
    });
    await match(anton, bella);
    const matchEvent = await events.waitFor((event) => event.type === 'match');
    expect((await bella.browser.post('/api/events/ack', { ids: [matchEvent.id] })).status).toBe(200);
    events.close();
    await afterGrace();
    expect(service.to(phone.endpoint)).toEqual([]);

    expect((await bella.browser.post('/api/settings', { push_notifications: false })).status).toBe(200);
    expect(await json<{ push_notifications: boolean }>(await bella.browser.get('/api/settings'))).toMatchObject({
      push_notifications: false,
    });
    const { conversation_id } = await json<{ conversation_id: number }>(
      await anton.browser.post('/api/conversations/start', { profile_id: bella.profileId }),
    );
    expect(
      (await anton.browser.post(`/api/conversations/${conversation_id}/messages`, { content: 'Привет' })).status,
    ).toBe(201);
    await afterGrace();
    expect(service.to(phone.endpoint)).toEqual([]);
  });

  it('forgets a browser whose push service answers 410 Gone, and retries one that answers 503', async () => {
    const anton = await person({ gender: 'Male', name: 'Антон' });
    const bella = await person({ name: 'Белла', language: 'ru' });
    const [gone, flaky] = [await subscribed(bella), await subscribed(bella)];
    service.answer(gone.endpoint, 410);
    service.answer(flaky.endpoint, 503);
    await match(anton, bella);
    await afterGrace();
    expect(await subscriptionsOf(bella)).toEqual([flaky.endpoint]);
    // The push service is back: the retry (30 s later) delivers, in Bella's language.
    service.answer(flaky.endpoint, null);
    app.clock.advance(31);
    await worker.drainOnce();
    expect(service.to(flaky.endpoint).map((push) => (push.payload as { title: string }).title)).toEqual([
      ru.push.matchTitle,
    ]);
  });
});
