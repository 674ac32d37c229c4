import { expect } from 'vitest';
import { Browser } from './browser.ts';
import { codeFrom } from './smtpStandIn.ts';
import type { TestApp } from './testApp.ts';
import type { UserId } from '../../db/schema.ts';

let counter = 0;
export const testPassword = 'secret123!';

export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}${counter}-${process.pid}-${Date.now()}@example.com`;
}

/** A browser signed in as a new account that has verified its e-mail, as the profile screens require. */
export async function signUpVerified(
  app: TestApp,
  email = uniqueEmail(),
): Promise<{ browser: Browser; email: string; userId: UserId }> {
  const browser = new Browser(app.url);
  const res = await browser.post('/api/register', { email, password: testPassword });
  expect(res.status).toBe(201);
  const { user_id } = (await res.json()) as { user_id: UserId };
  const code = codeFrom(await app.smtp.lastMailTo(email));
  expect((await browser.post('/api/verify', { code })).status).toBe(200);
  return { browser, email, userId: user_id };
}
