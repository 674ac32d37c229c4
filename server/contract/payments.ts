import { z } from 'zod/mini';
import { rowId } from './ids.ts';

/** `POST /api/payment` as the app sends it; strict, so no price or user can be slipped in. */
export const paymentBody = z.strictObject({
  amount: z.number({ error: 'Error processing payment' }).check(z.int(), z.positive()),
  interval: z.number({ error: 'Error processing payment' }).check(z.int(), z.positive()),
});

/** `GET /api/payments/:id`: the caller's own payment. */
export const paymentParams = z.object({ id: rowId('id') });

/**
 * What the app says on /confirm: paid (credited), pending (the provider has not answered yet) or failed
 * (cancelled or refused). `end_date` is the caller's subscription end once paid.
 */
export const paymentStatusResponse = z.object({
  id: z.number().check(z.int()),
  status: z.enum(['paid', 'pending', 'failed']),
  interval: z.number().check(z.int()),
  end_date: z.nullable(z.string()),
});
export type PaymentStatusResponse = z.infer<typeof paymentStatusResponse>;

export const checkoutParams = z.object({ id: rowId('id') });
export const checkoutQuery = z.object({ key: z.string().check(z.minLength(1), z.maxLength(100)) });

/** What YooKassa POSTs to /api/payments/yookassa/notify; only the payment id is used, and then re-read. */
export const yookassaNotification = z.object({
  type: z.literal('notification'),
  event: z.string().check(z.maxLength(100)),
  object: z.object({ id: z.string().check(z.minLength(1), z.maxLength(100)) }),
});
