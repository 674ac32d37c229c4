import { z } from 'zod';
import { rowId } from './ids.ts';

/** `POST /api/payment` as the app sends it; strict, so no price or user can be slipped in. */
export const paymentBody = z.strictObject({
  amount: z.number({ error: 'Error processing payment' }).int().positive(),
  interval: z.number({ error: 'Error processing payment' }).int().positive(),
});

export const checkoutParams = z.object({ id: rowId('id') });
export const checkoutQuery = z.object({ key: z.string().min(1).max(100) });

/** What YooKassa POSTs to /api/payments/yookassa/notify; only the payment id is used, and then re-read. */
export const yookassaNotification = z.object({
  type: z.literal('notification'),
  event: z.string().max(100),
  object: z.object({ id: z.string().min(1).max(100) }),
});
