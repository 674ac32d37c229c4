import { telegramAuthResponse } from '@contract/telegramAuth.ts';
import { writeStored, storageKeys } from '../../lib/storage.ts';
import type { LaunchFailure, LaunchSignIn } from '../../platform/platform.ts';
import { ApiError } from '../ApiError.ts';
import { api } from '../client.ts';

/** What each refusal of `POST /api/auth/telegram` means for the user (anything else: no answer). */
const failures: Partial<Record<string, LaunchFailure>> = {
  telegram_data_expired: 'expired',
  telegram_auth_failed: 'invalid',
  invalid_init_data: 'invalid',
  invalid_input: 'missing',
};

/**
 * Spec section 4: the Mini App sends its init data and keeps the returned token under jwtToken. Resolves
 * the signed-in user as the answer gives it (what `GET /api/current_user` would), or why it failed.
 */
export async function signInWithTelegram(initData: string): Promise<LaunchSignIn> {
  try {
    const { token, current_user } = await api.post('/api/auth/telegram', telegramAuthResponse, { initData });
    writeStored(storageKeys.jwtToken, token);
    return { user: current_user };
  } catch (error) {
    console.warn('Telegram sign-in failed', error);
    return { failure: (error instanceof ApiError && error.code ? failures[error.code] : undefined) ?? 'unavailable' };
  }
}
