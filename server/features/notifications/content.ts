/**
 * What a notification says, on its own so that both the worker (which sends it) and emails.ts (which words
 * it) can read it without importing each other.
 */
import type { Gender } from '../../../db/schema.ts';
import type { Language } from '../../../locales/index.ts';
import type { AccountChange } from './accountChange.ts';

/** What a notification says, by kind: each kind carries exactly what its message and button need. */
export type NotificationContent =
  /** `profileId`: absent in jobs queued before the job named the other person (their button opens the matches). */
  | { kind: 'match'; name: string; profileId?: number | undefined }
  | { kind: 'message'; name: string; preview: string; conversationId: number }
  /** Someone liked a premium user, who may see who it was; or wrote with their like to anyone (`wrote`). */
  | { kind: 'like'; name: string; wrote?: boolean }
  /** `until`: when the subscription ends (ISO). */
  | { kind: 'premium_ending'; until: string }
  /** A way into the account added or removed, the e-mail or password changed, at `at` (ISO). */
  | { kind: 'account_change'; change: AccountChange; at: string };

/**
 * `genders`: the recipient's (a sentence addressed to them: "напишите первой") and the other person's ("лайкнула
 * вас"), for i18next's _male/_female contexts; null when unknown (the neutral wording).
 */
export type Notification = {
  telegramId: string;
  language: Language;
  genders?: NotificationGenders;
} & NotificationContent;
export interface NotificationGenders {
  reader: Gender | null;
  other: Gender | null;
}
