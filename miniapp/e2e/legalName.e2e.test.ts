import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSite, testConfig, type Site } from './harness.ts';

/**
 * Issue #20, point 6: the footer's legal details show LEGAL_NAME as given when it already names its form
 * (it read «ИП ИП …»), and add «ИП» / "Individual entrepreneur" when it is a bare name.
 */
describe.each([
  ['ИП Иванова Мария Сергеевна', { ru: 'ИП Иванова Мария Сергеевна', en: 'ИП Иванова Мария Сергеевна' }],
  [
    'Иванова Мария Сергеевна',
    { ru: 'ИП Иванова Мария Сергеевна', en: 'Individual entrepreneur Иванова Мария Сергеевна' },
  ],
] as const)('the footer with LEGAL_NAME %s', (legalName, expected) => {
  let site: Site;
  beforeAll(async () => {
    site = await startSite({ publicConfig: { ...testConfig, legal_name: legalName } });
  });
  afterAll(async () => {
    await site.close();
  });

  it.each(['ru', 'en'] as const)('reads right in %s', async (language) => {
    const { context, page } = await site.page({ language });
    await page.goto('/');
    const line = page.locator('footer').getByText(testConfig.legal_inn ?? '', { exact: false });
    await line.waitFor();
    const text = (await line.textContent()) ?? '';
    expect(text.startsWith(`${expected[language]} · `)).toBe(true);
    expect(text).not.toMatch(/ИП\s+ИП|entrepreneur\s+ИП/);
    const shots = process.env.CITY_SHOTS_DIR;
    if (shots)
      await page.locator('footer').screenshot({
        path: `${shots}/footer-${legalName.startsWith('ИП') ? 'with-ip' : 'bare'}-${language}.png`,
        scale: 'css',
      });
    await context.close();
  });
});
