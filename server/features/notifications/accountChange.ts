import { z } from 'zod';
import type { SignInMethod } from '../../contract/accounts.ts';

// The contract's three ways in (contract/accounts.ts signInMethod), checked equal below.
const signInMethod = z.enum(['password', 'telegram', 'google']);

/**
 * A change to how the account is entered, told to its owner (AccountAlerts): a way in added or removed,
 * the e-mail address or the password changed. Stored as a bot notification's payload, with when it happened.
 */
export const accountChange = z.discriminatedUnion('change', [
  z.object({ change: z.literal('method_added'), method: signInMethod }),
  z.object({ change: z.literal('method_removed'), method: signInMethod }),
  z.object({ change: z.literal('email_changed') }),
  z.object({ change: z.literal('password_changed') }),
]);
export type AccountChange = z.infer<typeof accountChange>;

/** The stored payload: the change and its time (ISO). */
export const accountChangePayload = z.intersection(accountChange, z.object({ at: z.iso.datetime() }));

// Fails to compile when the contract gains a way in this list lacks.
export const sameMethods: [SignInMethod] extends [z.infer<typeof signInMethod>] ? true : never = true;
