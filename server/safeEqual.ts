import { timingSafeEqual } from 'node:crypto';

/** Compares secrets in constant time, so response timing leaks nothing about how much of a guess was right. */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
