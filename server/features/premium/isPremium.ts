/** Premium is an end date, never a flag: active while it lies ahead (nothing has to expire it). */
export function isPremium(premiumUntil: string | null, now: Date): boolean {
  return premiumUntil !== null && premiumUntil > now.toISOString();
}
