import { readStored, storageKeys } from '../lib/storage.ts';

/**
 * The user's own Telegram profile photo (`GET /api/telegram/profile_photo`, issue 39) as a JPEG for the
 * wizard's cropper; null when there is none to offer (no photo, hidden from bots, Telegram not answering).
 * An image, not JSON, so it is fetched here rather than through the API client, with the same bearer token.
 */
export async function fetchTelegramPhoto(): Promise<Blob | null> {
  const token = readStored(storageKeys.jwtToken);
  try {
    const response = await fetch('/api/telegram/profile_photo', {
      headers: token ? { Authorization: `Bearer ${token}` } : {},
      credentials: 'same-origin',
    });
    if (!response.ok || !response.headers.get('Content-Type')?.startsWith('image/')) return null;
    return await response.blob();
  } catch {
    return null;
  }
}
