/**
 * The plans of spec section 3, as named data: the server finds a plan from the `{amount, interval}` the
 * app sends and never takes a price from the client. Stars prices are for purchases inside Telegram.
 */
export interface PlanDefinition {
  id: 'week' | 'month' | 'half_year' | 'year' | 'test_day';
  /** Roubles. */
  price: number;
  intervalDays: number;
  /** Discount label in percent (spec: 10, 50, 60, 70). */
  discount: number | null;
  stars: number;
  /** The 10-rouble day exists to try the payment path; offered with the test provider, or to admins. */
  testOnly: boolean;
}

export const plans: readonly PlanDefinition[] = [
  { id: 'week', price: 249, intervalDays: 7, discount: 10, stars: 150, testOnly: false },
  { id: 'month', price: 499, intervalDays: 30, discount: 50, stars: 300, testOnly: false },
  { id: 'half_year', price: 2389, intervalDays: 180, discount: 60, stars: 1400, testOnly: false },
  { id: 'year', price: 3599, intervalDays: 365, discount: 70, stars: 2100, testOnly: false },
  { id: 'test_day', price: 10, intervalDays: 1, discount: null, stars: 5, testOnly: true },
];

export function offeredPlans(withTestPlan: boolean): PlanDefinition[] {
  return plans.filter((p) => withTestPlan || !p.testOnly);
}

export function planFor(amount: number, intervalDays: number, withTestPlan: boolean): PlanDefinition | undefined {
  return offeredPlans(withTestPlan).find((p) => p.price === amount && p.intervalDays === intervalDays);
}

/** A paid plan extends from the later of now and the current end, so buying early loses nothing. */
export function extendedEnd(currentEnd: string | null, now: Date, intervalDays: number): Date {
  const from = currentEnd && new Date(currentEnd) > now ? new Date(currentEnd) : now;
  return new Date(from.getTime() + intervalDays * 86_400_000);
}
