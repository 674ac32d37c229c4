import { z } from 'zod';

/**
 * `GET /api/plans` (premium issue): the plans of spec section 3, each with a title, a price in roubles,
 * an interval in days and an optional discount label. The app renders whatever the server lists.
 */
export const plan = z.object({
  id: z.string(),
  title: z.string(),
  price: z.number().nonnegative(),
  interval: z.number().int().positive(),
  discount: z.number().int().min(0).max(100).nullable().optional(),
  /** Present when this caller pays in Telegram Stars (the Mini App of a Telegram account): the price in Stars. */
  stars: z.number().int().positive().optional(),
});
export type Plan = z.infer<typeof plan>;

export const plansResponse = z.object({
  plans: z.array(plan),
  /** The built-in test checkout takes web payments (PAYMENT_PROVIDER=test): no money moves. */
  test_provider: z.boolean(),
});
export type PlansResponse = z.infer<typeof plansResponse>;

/** `GET /api/subscription`: spec section 3. */
export const subscriptionResponse = z.object({ isActive: z.boolean(), end_date: z.string().nullable() });
export type SubscriptionResponse = z.infer<typeof subscriptionResponse>;

/** `POST /api/payment`: spec section 7. */
export const paymentRequest = z.object({ amount: z.number().positive(), interval: z.number().int().positive() });
export const paymentResponse = z.object({ payment_url: z.string().optional(), invoice_url: z.string().optional() });
