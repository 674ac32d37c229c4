import { z } from 'zod/mini';

/**
 * `GET /api/plans` (premium issue): the plans of spec section 3, each with a title, a price in roubles,
 * an interval in days and an optional discount label. The app renders whatever the server lists.
 */
export const plan = z.object({
  id: z.string(),
  title: z.string(),
  price: z.number().check(z.nonnegative()),
  interval: z.number().check(z.int(), z.positive()),
  discount: z.optional(z.nullable(z.number().check(z.int(), z.gte(0), z.lte(100)))),
  /** Present when this caller pays in Telegram Stars (the Mini App of a Telegram account): the price in Stars. */
  stars: z.optional(z.number().check(z.int(), z.positive())),
});
export type Plan = z.infer<typeof plan>;

export const plansResponse = z.object({
  plans: z.array(plan),
  /** The built-in test checkout takes web payments (PAYMENT_PROVIDER=test): no money moves. */
  test_provider: z.boolean(),
});
export type PlansResponse = z.infer<typeof plansResponse>;

/** `GET /api/subscription`: spec section 3. */
export const subscriptionResponse = z.object({ isActive: z.boolean(), end_date: z.nullable(z.string()) });
export type SubscriptionResponse = z.infer<typeof subscriptionResponse>;

/** `POST /api/payment`: spec section 7. */
export const paymentRequest = z.object({
  amount: z.number().check(z.positive()),
  interval: z.number().check(z.int(), z.positive()),
});
export const paymentResponse = z.object({
  payment_url: z.optional(z.string()),
  invoice_url: z.optional(z.string()),
  /** The payment just created: GET /api/payments/:id tells what became of it. */
  payment_id: z.optional(z.number().check(z.int())),
});
