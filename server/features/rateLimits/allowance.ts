import { addSeconds } from '../../clock.ts';
import { AppError } from '../../errors.ts';

/** What a rolling-window allowance has used: how many, and when the oldest counted one happened. */
export interface AllowanceUse {
  count: number;
  oldest: string | null;
}

export interface Allowance {
  limit: number;
  windowSeconds: number;
  code: string;
  message: string;
}

/**
 * Refuses with 429 (`resets_at`, `limit`, Retry-After) when a rolling window is used up. Only sound when
 * `used` was counted inside the same transaction that writes the new item, under a lock every writer of
 * that allowance takes first (the owner's row): counting outside it let 30 parallel likes through a limit
 * with 5 left.
 */
export function assertAllowance(used: AllowanceUse, allowance: Allowance, now: Date): void {
  if (used.count < allowance.limit) return;
  const resetsAt = addSeconds(new Date(used.oldest ?? now.toISOString()), allowance.windowSeconds);
  throw new AppError(429, allowance.code, allowance.message, {
    retryAfterSeconds: Math.max(1, Math.ceil((resetsAt.getTime() - now.getTime()) / 1000)),
    extra: { resets_at: resetsAt.toISOString(), limit: allowance.limit },
  });
}
