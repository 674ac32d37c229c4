export { isCurrentPassword, passwordTriesPerHour } from './currentPassword.ts';
export { presentCurrentUser, presentSignedInUser } from './currentUser.ts';
export type { LoginDevices } from './loginDevices.ts';
export { maxLoginFailures } from './loginThrottle.ts';
export { PasswordHasher } from './passwords.ts';
export { findUserByEmail, findUserById, lockUser, markUserVerified, setPasswordHash } from './repository.ts';
export type { SignedIn, SignedInWithPassword } from './service.ts';
export { startWebSession } from './webSignIn.ts';
export { Reauthentication, wrongPassword } from './reauthentication.ts';
