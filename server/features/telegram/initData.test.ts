import { describe, expect, it } from 'vitest';
import { signInitData, signWidgetPayload, testBotToken } from '../../test/telegramSigning.ts';
import { validateInitData } from './initData.ts';
import { validateLoginWidget } from './loginWidget.ts';
import { languageFromTelegram } from './telegramIdentity.ts';

// Telegram's published example (bot token and init data from the issue), signed in September 2022.
const exampleToken = '5768337691:AAH5YkoiEuPk8-FZa32hStHTqXiLPtAEhx8';
const exampleInitData =
  'query_id=AAHdF6IQAAAAAN0XohDhrOrc&user=%7B%22id%22%3A279058397%2C%22first_name%22%3A%22Vladislav%22%2C%22last_name%22%3A%22Kibenko%22%2C%22username%22%3A%22vdkfrost%22%2C%22language_code%22%3A%22ru%22%2C%22is_premium%22%3Atrue%7D&auth_date=1662771648&hash=c501b71e775f74ce10e377dea85a7ea24ecd640b223ea86dfe453e0eaed2e2b2';

describe("Telegram's published init data example", () => {
  it('is correctly signed (freshness off) and yields the user', () => {
    const result = validateInitData(exampleInitData, exampleToken, null);
    expect(result).toEqual({
      ok: true,
      data: {
        user: { id: 279058397, username: 'vdkfrost', languageCode: 'ru' },
        authDate: new Date(1662771648 * 1000),
        queryId: 'AAHdF6IQAAAAAN0XohDhrOrc',
        startParam: undefined,
      },
    });
  });

  it('is refused with any one character changed, in a value or in the hash', () => {
    const changedName = exampleInitData.replace('Vladislav', 'Vladislaw');
    const changedDate = exampleInitData.replace('auth_date=1662771648', 'auth_date=1662771649');
    const changedHash = exampleInitData.replace('hash=c501', 'hash=d501');
    for (const data of [changedName, changedDate, changedHash]) {
      expect(validateInitData(data, exampleToken, null)).toEqual({ ok: false, reason: 'bad_signature' });
    }
  });

  it('is refused under another bot token', () => {
    expect(validateInitData(exampleInitData, exampleToken.replace('AAH5', 'AAH6'), null)).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
  });

  it('is stale today with the freshness check on', () => {
    expect(validateInitData(exampleInitData, exampleToken, new Date('2026-11-22T06:00:00Z'))).toEqual({
      ok: false,
      reason: 'stale',
    });
  });
});

describe('init data validation', () => {
  const now = new Date('2026-11-22T06:00:00Z');
  const user = { id: 7_000_000_001, first_name: 'A+B & C/D Иван', language_code: 'en' };

  it('accepts a day-old signature and refuses one a second older', async () => {
    const dayOld = new Date(now.getTime() - 86_400_000);
    expect(validateInitData(await signInitData(user, dayOld), testBotToken, now).ok).toBe(true);
    const tooOld = new Date(now.getTime() - 86_401_000);
    expect(validateInitData(await signInitData(user, tooOld), testBotToken, now)).toEqual({
      ok: false,
      reason: 'stale',
    });
  });

  it('accepts a minute of clock skew into the future, not more', async () => {
    expect(validateInitData(await signInitData(user, new Date(now.getTime() + 60_000)), testBotToken, now).ok).toBe(
      true,
    );
    expect(validateInitData(await signInitData(user, new Date(now.getTime() + 61_000)), testBotToken, now)).toEqual({
      ok: false,
      reason: 'stale',
    });
  });

  it('keeps the signature field in the checked string', async () => {
    const signed = await signInitData(user, now, { extra: { signature: 'abc', start_param: 'ref_42' } });
    const result = validateInitData(signed, testBotToken, now);
    expect(result.ok && result.data.startParam).toBe('ref_42');
    const withoutSignature = new URLSearchParams(signed);
    withoutSignature.delete('signature');
    expect(validateInitData(withoutSignature.toString(), testBotToken, now)).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
  });

  it('calls missing hash, repeated keys, garbage and a bad user object malformed', async () => {
    const signed = await signInitData(user, now);
    const noHash = new URLSearchParams(signed);
    noHash.delete('hash');
    expect(validateInitData(noHash.toString(), testBotToken, now)).toEqual({ ok: false, reason: 'malformed' });
    expect(validateInitData(`${signed}&user=%7B%7D`, testBotToken, now)).toEqual({ ok: false, reason: 'malformed' });
    expect(validateInitData('garbage', testBotToken, now)).toEqual({ ok: false, reason: 'malformed' });
    const badUser = await signInitData({ id: -1 }, now);
    expect(validateInitData(badUser, testBotToken, now)).toEqual({ ok: false, reason: 'malformed' });
  });
});

describe('Login Widget validation', () => {
  const now = new Date('2026-11-22T06:00:00Z');

  it('accepts the signed object, refuses a changed field, another token and a stale date', async () => {
    const payload = await signWidgetPayload({ id: 42, first_name: 'Anna', username: 'anna' }, now);
    expect(validateLoginWidget(payload, testBotToken, now)).toEqual({ ok: true, user: { id: 42, username: 'anna' } });
    expect(validateLoginWidget({ ...payload, id: 43 }, testBotToken, now)).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
    expect(validateLoginWidget(payload, `${testBotToken}x`, now)).toEqual({ ok: false, reason: 'bad_signature' });
    const old = await signWidgetPayload({ id: 42 }, new Date(now.getTime() - 86_401_000));
    expect(validateLoginWidget(old, testBotToken, now)).toEqual({ ok: false, reason: 'stale' });
  });

  it('does not accept a Mini App signature as a widget signature (different secret keys)', async () => {
    const initData = new URLSearchParams(await signInitData({ id: 42 }, now));
    const payload = { id: 42, auth_date: Number(initData.get('auth_date')), hash: initData.get('hash') ?? '' };
    expect(validateLoginWidget(payload, testBotToken, now).ok).toBe(false);
  });
});

describe('language from Telegram', () => {
  it('takes Russian for ru/uk/be/kk, English for any other code, Russian when there is none', () => {
    expect(languageFromTelegram('en')).toBe('en');
    expect(languageFromTelegram('en-GB')).toBe('en');
    expect(languageFromTelegram('de')).toBe('en');
    expect(languageFromTelegram('pt-br')).toBe('en');
    for (const code of ['ru', 'uk', 'be', 'kk', 'RU-ru']) expect(languageFromTelegram(code)).toBe('ru');
    expect(languageFromTelegram(undefined)).toBe('ru');
    expect(languageFromTelegram('')).toBe('ru');
  });
});
