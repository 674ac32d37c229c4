import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorResponse } from '../../contract/errors.ts';
import { Browser, json } from '../../test/browser.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';
import { distanceKm } from './geocoder.ts';

const password = 'secret123!';
let counter = 0;

describe.each(testDialects())('location API on %s', (dialect) => {
  let app: TestApp;
  let russian: Browser;
  let english: Browser;
  beforeAll(async () => {
    app = await createTestApp(dialect);
    // The account's language comes from the browser at registration (ru by default).
    russian = await signedUp();
    english = await signedUp({ 'Accept-Language': 'en-GB,en;q=0.9' });
  });
  afterAll(async () => {
    await app.close();
  });

  async function signedUp(headers: Record<string, string> = {}) {
    const browser = new Browser(app.url);
    const res = await browser.post(
      '/api/register',
      { email: `loc${++counter}-${Date.now()}@example.com`, password },
      { headers },
    );
    expect(res.status).toBe(201);
    return browser;
  }

  const cityCheck = async (browser: Browser, citycheck: unknown) => {
    const res = await browser.post('/api/citycheck', { citycheck });
    return { status: res.status, body: await json(res) };
  };

  it('resolves a typed city to its name and coordinates, in the account language', async () => {
    const moscow = await cityCheck(russian, 'москва');
    expect(moscow.status).toBe(200);
    expect(moscow.body.city).toBe('Москва');
    const [lat, lon] = moscow.body.coords as [number, number];
    expect(distanceKm(lat, lon, 55.7558, 37.6173)).toBeLessThan(5);

    expect((await cityCheck(english, 'Москва')).body).toEqual({ city: 'Moscow', place_id: 524901, coords: [lat, lon] });
    expect((await cityCheck(russian, 'Moscow')).body.city).toBe('Москва');
  });

  it.each([
    ['Санкт-Петербург', 'Санкт-Петербург', 59.9386, 30.3141],
    ['Saint Petersburg', 'Санкт-Петербург', 59.9386, 30.3141],
    ['санкт петербург', 'Санкт-Петербург', 59.9386, 30.3141],
    ['Екатеринбург', 'Екатеринбург', 56.8389, 60.6057],
    ['Королев', 'Королёв', 55.9162, 37.8545],
    ['Орел', 'Орёл', 52.9703, 36.0635],
    ['Новосибирск', 'Новосибирск', 55.0302, 82.9204],
  ])('resolves %s to %s near its centre', async (typed, answer, lat, lon) => {
    const { status, body } = await cityCheck(russian, typed);
    expect(status).toBe(200);
    expect(body.city).toBe(answer);
    const [foundLat, foundLon] = body.coords as [number, number];
    expect(distanceKm(foundLat, foundLon, lat, lon)).toBeLessThan(5);
  });

  it('names the city at the coordinates: Москва for a Russian user, Moscow for an English one', async () => {
    const point = { latitude: 55.7558, longitude: 37.6173 };
    const ru = await russian.post('/api/get_city', point);
    expect(ru.status).toBe(200);
    expect(await json(ru)).toEqual({ city: 'Москва', place_id: 524901 });
    expect(await json(await english.post('/api/get_city', point))).toEqual({ city: 'Moscow', place_id: 524901 });
  });

  it('answers a point off the coast with the coastal city, and 404 with the hint far out at sea', async () => {
    expect(await json(await russian.post('/api/get_city', { latitude: 43.45, longitude: 39.5 }))).toMatchObject({
      city: 'Сочи',
    });
    const res = await russian.post('/api/get_city', { latitude: 30, longitude: -40 });
    expect(res.status).toBe(404);
    const body = await json<ErrorResponse>(res);
    expect(body.code).toBe('city_not_found');
    expect(body.error).toMatch(/location/);
  });

  it('answers 404 city_not_found with the geolocation hint for an unknown city', async () => {
    const { status, body } = await cityCheck(russian, 'Атлантида');
    expect(status).toBe(404);
    expect(body).toEqual({
      error: expect.stringMatching(/allow access to your location/) as unknown,
      code: 'city_not_found',
    });
  });

  it('refuses anyone not signed in with 401', async () => {
    const anonymous = new Browser(app.url);
    for (const [path, body] of [
      ['/api/get_city', { latitude: 55.75, longitude: 37.61 }],
      ['/api/citycheck', { citycheck: 'Москва' }],
    ] as const) {
      const res = await anonymous.post(path, body);
      expect(res.status).toBe(401);
      expect(await json(res)).toMatchObject({ code: 'unauthorized' });
    }
  });

  it.each([
    [{ latitude: 91, longitude: 37 }, 'latitude'],
    [{ latitude: -90.01, longitude: 37 }, 'latitude'],
    [{ latitude: 55, longitude: 180.5 }, 'longitude'],
    [{ latitude: 55, longitude: -181 }, 'longitude'],
    [{ latitude: '55.75', longitude: 37.61 }, 'latitude'],
    [{ latitude: null, longitude: 37.61 }, 'latitude'],
    [{ longitude: 37.61 }, 'latitude'],
    [{ latitude: 55.75, longitude: 37.61, city: 'x' }, '_'],
  ])('refuses get_city %j with 400', async (payload, field) => {
    const res = await russian.post('/api/get_city', payload);
    expect(res.status).toBe(400);
    const body = await json<ErrorResponse>(res);
    expect(body).toMatchObject({ code: 'invalid_input', error: expect.any(String) as unknown });
    expect(body.fields).toHaveProperty(field);
  });

  it.each([[''], ['    '], ['М'.repeat(101)], [42], [null], [['Москва']]])(
    'refuses citycheck %j with 400',
    async (value) => {
      const { status, body } = await cityCheck(russian, value);
      expect(status).toBe(400);
      expect(body).toMatchObject({ code: 'invalid_input', error: expect.any(String) as unknown });
      expect(body.fields).toHaveProperty('citycheck');
    },
  );

  it('refuses unknown fields and a body that is not an object', async () => {
    const extra = await russian.post('/api/citycheck', { citycheck: 'Москва', latitude: 1 });
    expect(extra.status).toBe(400);
    expect(await json(extra)).toMatchObject({ code: 'invalid_input', error: 'Unknown field(s): latitude' });
    const notObject = await russian.post('/api/citycheck', '"Москва"');
    expect(notObject.status).toBe(400);
  });
});
