import { referralCodePattern } from '@contract/referralCode.ts';
import { readStored, storageKeys, writeStored } from './storage.ts';

/**
 * A web visitor who came through an invitation (`?ref=<code>`): the code is kept until they sign up, on
 * whichever page that happens (the landing page first, the sign-up form later). Only a new account counts
 * it (the server decides), so it is harmless on a sign-in.
 */
export function rememberReferral(search: string = window.location.search): void {
  const code = new URLSearchParams(search).get('ref');
  if (code !== null && referralCodePattern.test(code)) writeStored(storageKeys.referral, code);
}

/**
 * The invitation has been answered (an account signed up or in with it): the server has decided, so it goes.
 * Kept, it would count the next person to sign up in this browser (a flatmate, after a sign-out) for the inviter.
 */
export function forgetReferral(): void {
  writeStored(storageKeys.referral, null);
}

/** `{ ref }` for a sign-up request, or nothing. */
export function referralField(): { ref?: string } {
  const code = readStored(storageKeys.referral);
  return code !== null && referralCodePattern.test(code) ? { ref: code } : {};
}
