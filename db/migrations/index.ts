import type { Migration } from 'kysely';
import * as createAccounts from './2026_11_22_0500_create_accounts.ts';
import * as addTelegramGoogle from './2026_11_22_0600_add_telegram_google.ts';

/**
 * Every migration, by its sortable name. Listed statically rather than read from the folder so that
 * the same list runs under tsx, vitest and a bundler alike. Append only: migrations are frozen once merged.
 */
export const migrations: Record<string, Migration> = {
  '2026_11_22_0500_create_accounts': createAccounts,
  '2026_11_22_0600_add_telegram_google': addTelegramGoogle,
};
