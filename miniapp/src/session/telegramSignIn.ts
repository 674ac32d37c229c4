import type { CurrentUserResponse } from '@contract/accounts.ts';
import { languageOfTag } from '@locales/languages.ts';
import { followAccountLanguage } from '../i18n.ts';
import { readStored, storageKeys } from '../lib/storage.ts';
import { platform, type LaunchFailure } from '../platform/index.ts';
import { speakAccountLanguage } from './accountLanguage.ts';

/**
 * Why Telegram's launch data failed, once they did: every later anonymous session of this page load
 * keeps it (a 401 elsewhere checks the session again, and the reopen screen must still say why).
 */
let launchFailure: LaunchFailure | undefined;

export function telegramLaunchFailure(): LaunchFailure | undefined {
  return launchFailure;
}

/**
 * The session starts with the launch data signing the user in (inside Telegram, no token stored yet): until
 * that answers, a read has no token to carry and is refused (session/RouteGuards.tsx holds the screens).
 */
export function signsInByLaunch(): boolean {
  return platform().kind === 'telegram' && readStored(storageKeys.jwtToken) === null;
}

/**
 * Inside Telegram, without a stored token, the init data sign the user in before the first fetch (spec
 * section 4), and the sign-in's answer is the current user: the signed-in user, ready to be adopted in
 * their account's language, or why it failed. Null where there is no launch to sign in with (the web, a
 * stored token): the session is fetched as usual then.
 */
export async function signInByTelegramLaunch(): Promise<
  { user: CurrentUserResponse } | { failure: LaunchFailure } | null
> {
  if (!signsInByLaunch()) return null;
  const signedIn = await platform().signIn();
  if (signedIn && 'user' in signedIn) {
    // Notifications (on by default) come from the bot: a newcomer who never started it is asked
    // on arrival; later only when turning notifications on (Menu), not on every launch.
    if (signedIn.user.userprofile === null) void platform().requestWriteAccess();
    // The first screen in the account's language (a new user's comes from Telegram's language_code).
    await speakAccountLanguage(signedIn.user);
    return signedIn;
  }
  if (!signedIn) return null;
  // Inside Telegram there is no other way in (no forms): the app says why and offers to reopen it,
  // in the language the user's Telegram speaks (no account to ask).
  launchFailure = signedIn.failure;
  const spoken = platform().userLanguage();
  if (spoken) await followAccountLanguage(languageOfTag(spoken)).catch(() => undefined);
  return { failure: signedIn.failure };
}
