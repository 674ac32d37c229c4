import type { CurrentUserResponse } from '@contract/accounts.ts';
import i18next from 'i18next';
import { isLanguage, type Language } from '@locales/languages.ts';
import { forgetReferral, referralField } from '../../lib/referral.ts';
import { api, isRecord, lazySchema } from '../client.ts';
import { useAction } from '../useAction.ts';

// Checked after the first load (contractCheck.ts): the session read and the sign-in form need no zod.
const accounts = () => import('@contract/accounts.ts');
/** What the session is built from (session/SessionProvider.tsx): a token is forgotten on `authorized: false`. */
const isCurrentUser = (answer: Record<string, unknown>) =>
  typeof answer.authorized === 'boolean' && typeof answer.user_verified === 'boolean';
const currentUserResponse = lazySchema(() => accounts().then((m) => m.currentUserResponse), isCurrentUser);
const languageResponse = lazySchema(() => accounts().then((m) => m.languageResponse));
const messageResponse = lazySchema(() => accounts().then((m) => m.messageResponse));
// A sign-in's answer is handed to the session as its `current_user`.
const sessionResponse = lazySchema(
  () => accounts().then((m) => m.sessionResponse),
  (answer) => isRecord(answer.current_user) && isCurrentUser(answer.current_user),
);

/** Accounts and sessions (server/features/accounts). The session itself is kept by session/SessionProvider.tsx. */
export function fetchCurrentUser(): Promise<CurrentUserResponse> {
  return api.get('/api/current_user', currentUserResponse);
}

/** The language switch, kept on the account: the other devices and the bot's messages follow it. */
export function saveLanguage(language: Language) {
  return api.post('/api/language', languageResponse, { language });
}

export function logout() {
  return api.post('/api/logout', messageResponse);
}

interface Credentials {
  email: string;
  password: string;
}

/**
 * The language the app speaks now (the landing's switch, or the browser's): a sign-up sends it, so a new
 * account speaks it from /verify on rather than the browser's Accept-Language. An existing account keeps its own.
 */
function chosenLanguage(): { language?: Language } {
  const language = i18next.language;
  return isLanguage(language) ? { language } : {};
}

/*
 * Every sign-in answers `current_user` (what `GET /api/current_user` would give next): the screens hand
 * it to the session (`adopt` in session/SessionProvider.tsx), which keeps it in the cache.
 */

export function useLogin() {
  return useAction(login);
}

export function useRegister() {
  return useAction(register, forgetReferral);
}

export function useGoogleLogin() {
  return useAction(googleLogin, forgetReferral);
}

/** The signed user object Telegram's Login Widget hands over, posted as is (the server checks its hash). */
export function useTelegramWidgetLogin() {
  return useAction(telegramWidgetLogin, forgetReferral);
}

// Module-level, so each hook's call keeps one identity across renders.
const login = ({ email, password }: Credentials) => api.post('/api/login', sessionResponse, { email, password });
const register = ({ email, password }: Credentials) =>
  api.post('/api/register', sessionResponse, { email, password, ...referralField(), ...chosenLanguage() });
const googleLogin = (idToken: string) =>
  api.post('/api/googlelogin', sessionResponse, { id_token: idToken, ...referralField(), ...chosenLanguage() });
const telegramWidgetLogin = (signed: Record<string, string | number>) =>
  api.post('/api/auth', sessionResponse, { ...signed, ...referralField(), ...chosenLanguage() });
