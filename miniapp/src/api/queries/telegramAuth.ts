import { telegramAuthResponse } from '@contract/telegramAuth.ts';
import { writeStored, storageKeys } from '../../lib/storage.ts';
import { api } from '../client.ts';

/** Spec section 4: the Mini App sends its init data and keeps the returned token under jwtToken. */
export async function signInWithTelegram(initData: string): Promise<boolean> {
  try {
    const { token } = await api.post('/api/auth/telegram', telegramAuthResponse, { initData });
    writeStored(storageKeys.jwtToken, token);
    return true;
  } catch (error) {
    // Spec section 8: a failed Mini App sign-in is logged only; the landing page still works.
    console.warn('Telegram sign-in failed', error);
    return false;
  }
}
