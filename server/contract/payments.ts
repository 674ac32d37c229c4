import { z } from 'zod';

/** `POST /api/payment` as the app sends it; strict, so no price or user can be slipped in. */
export const paymentBody = z.strictObject({
  amount: z.number({ error: 'Error processing payment' }).int().positive(),
  interval: z.number({ error: 'Error processing payment' }).int().positive(),
});

export const checkoutParams = z.object({ id: z.coerce.number().int().positive() });
export const checkoutQuery = z.object({ key: z.string().min(1).max(100) });
