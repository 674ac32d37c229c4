import type { UserId } from '../../../db/schema.ts';
import type { RateCounter } from '../rateLimits/index.ts';
import type { PasswordHasher } from './passwords.ts';

/**
 * Tries of the current password per account and hour, over every signed-in action that asks for it (the
 * password and e-mail changes, deleting the account). Without a limit, whoever holds a session (a phone left
 * unlocked, a stolen cookie) could guess the password there, unthrottled unlike the login, and then change
 * the address and keep the account, or delete it. One counter for all of them, so each action does not add
 * its own ten.
 */
export const passwordTriesPerHour = 10;

/** Whether `given` is the account's password, counted against the hourly tries (429 past them, before any check). */
export async function isCurrentPassword(
  deps: { rates: RateCounter; passwords: PasswordHasher },
  userId: UserId,
  hash: string,
  given: string | undefined,
): Promise<boolean> {
  await deps.rates.hit(
    `account_password:${userId}`,
    [{ seconds: 3600, limit: passwordTriesPerHour }],
    'too_many_password_attempts',
    'Too many password attempts. Please try again later.',
  );
  return given !== undefined && deps.passwords.verify(hash, given);
}
