/**
 * Counts changes of whose data the app holds (another user signed in, signed out, a profile created or
 * deleted; see session/SessionProvider.tsx). State kept outside the cache compares generations to tell
 * that it, or an answer still on its way, belongs to someone before.
 */
let generation = 0;

export function sessionGeneration(): number {
  return generation;
}

/** Called where the cache is emptied for the new user. */
export function nextSessionGeneration(): void {
  generation += 1;
}
