import { translatorFor, type Language } from '../../../locales/index.ts';
import type { AccountChange } from '../notifications/index.ts';

/** "12 Dec 2026, 14:05 UTC": the notice says when, in the reader's language; UTC, as no time zone of theirs is known. */
export function changeTime(language: Language, at: Date): string {
  return `${new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(at)} UTC`;
}

/** What changed, in words: "Google was added as a way to sign in". */
export function changeText(language: Language, change: AccountChange): string {
  const t = translatorFor(language);
  const method = 'method' in change ? t(`app.account.method.${change.method}`) : '';
  return t(`mail.accountChange.what.${change.change}`, { method });
}
