import type { TFunction } from 'i18next';

const actions = [
  'ban',
  'unban',
  'report_dismiss',
  'report_hold',
  'grant_premium',
  'refund',
  'resolve_flag',
  'verification_approve',
  'verification_reject',
  'photo_approve',
  'photo_remove',
  'view_selfie',
  'lookup',
] as const;
const evidence = ['new_account', 'unseen', 'shown', 'matched', 'chatted'] as const;

/** An audit log action in the reader's language; a code this app does not know yet is shown as it is. */
export function actionName(t: TFunction, code: string): string {
  const known = actions.find((a) => a === code);
  return known ? t(`app.admin.actions.${known}`) : code;
}

/** What a report's evidence was (server/features/safety/reportEvidence.ts), in the reader's language. */
export function evidenceName(t: TFunction, code: string): string {
  const known = evidence.find((e) => e === code);
  return known ? t(`app.admin.evidence.${known}`) : code;
}
