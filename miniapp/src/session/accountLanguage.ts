import type { CurrentUserResponse } from '@contract/accounts.ts';
import { followAccountLanguage } from '../i18n.ts';

/** Switches to the account's language before the session shows a screen; a dictionary not loaded keeps the current one. */
export async function speakAccountLanguage(user: CurrentUserResponse): Promise<void> {
  await followAccountLanguage(user.language).catch((error: unknown) =>
    console.warn('account language not loaded', error),
  );
}
