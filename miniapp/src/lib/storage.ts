/**
 * Browser storage keys of spec section 3 (localStorage), and beside them the deck's distance limit
 * (`maxDistance`, whole km; absent: any distance) and the invitation code. Otherwise only the profile
 * wizard's draft is kept (sessionStorage and IndexedDB, screens/Profile/CreateProfile/wizardDraft.ts) until
 * Create or Cancel.
 */
export const storageKeys = {
  jwtToken: 'jwtToken',
  ageRange: 'ageRange',
  selectedGender: 'selectedGender',
  language: 'language',
  darkMode: 'darkMode',
  /** Beyond the spec's keys (issue 37): the distance slider's limit. */
  maxDistance: 'maxDistance',
  /** Beyond the spec's keys (issue 40): only verified people. */
  verifiedOnly: 'verifiedOnly',
  /** The invitation's code a visitor arrived with (`?ref=`), sent with their sign-up. */
  referral: 'iskra.referral',
} as const;
export type StorageKey = (typeof storageKeys)[keyof typeof storageKeys];

/** localStorage that never throws (private mode, blocked storage): the app then just forgets. */
export function readStored(key: StorageKey): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStored(key: StorageKey, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    /* storage unavailable: the choice lasts for this page only */
  }
}
