import { z } from 'zod';

/** `POST /api/auth/telegram` (spec section 7): the Mini App's raw init data in, a jwtToken out. */
export const telegramAuthRequest = z.strictObject({ initData: z.string().min(1).max(4096) });
export const telegramAuthResponse = z.object({ token: z.string() });
