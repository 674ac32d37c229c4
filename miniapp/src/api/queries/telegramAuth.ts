import type { CurrentUserResponse } from '@contract/accounts.ts';
import { telegramAuthResponse } from '@contract/telegramAuth.ts';
import { writeStored, storageKeys } from '../../lib/storage.ts';
import { api } from '../client.ts';

/**
 * Spec section 4: the Mini App sends its init data and keeps the returned token under jwtToken. Resolves
 * the signed-in user as the answer gives it (what `GET /api/current_user` would), or null on failure.
 */
export async function signInWithTelegram(initData: string): Promise<CurrentUserResponse | null> {
  try {
    const { token, current_user } = await api.post('/api/auth/telegram', telegramAuthResponse, { initData });
    writeStored(storageKeys.jwtToken, token);
    return current_user;
  } catch (error) {
    // Spec section 8: a failed Mini App sign-in is logged only; the landing page still works.
    console.warn('Telegram sign-in failed', error);
    return null;
  }
}
