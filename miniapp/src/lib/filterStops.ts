import { ageLimits } from './constants.ts';

/**
 * The age slider (spec section 5): 18 to 100 in steps of 4 (18, 22, … 98, then 100 as the last stop), and the
 * thumbs never meet or cross. Positions are step indexes; the lower one stays at least one below the upper.
 */
export const lastAgeIndex = Math.ceil((ageLimits.max - ageLimits.min) / ageLimits.step);

export function ageAt(index: number): number {
  return Math.min(ageLimits.max, ageLimits.min + index * ageLimits.step);
}

export function indexOfAge(age: number): number {
  if (age >= ageLimits.max) return lastAgeIndex;
  return Math.max(0, Math.min(lastAgeIndex, Math.round((age - ageLimits.min) / ageLimits.step)));
}

export function clampAgeRange([low, high]: readonly [number, number]): [number, number] {
  const hi = Math.max(1, indexOfAge(high));
  const lo = Math.min(indexOfAge(low), hi - 1);
  return [ageAt(lo), ageAt(hi)];
}

/**
 * The distance slider's stops in whole km (the contract takes 1 to 500): fine steps nearby, where a few
 * kilometres matter in a city, coarse ones far away; past the last stop, "any distance" (no limit sent).
 */
export const distanceStops = [1, 2, 5, 10, 20, 30, 50, 75, 100, 150, 200, 300, 500] as const;
/** The slider's last position: any distance. */
export const anyDistanceIndex = distanceStops.length;

/** The limit at a slider position; undefined (no limit) at the last one. */
export function distanceAt(index: number): number | undefined {
  return distanceStops[Math.max(0, Math.round(index))];
}

/** The slider position of a limit: the nearest stop, the last position for no limit. */
export function indexOfDistance(km: number | undefined): number {
  if (km === undefined) return anyDistanceIndex;
  let best = 0;
  for (const [i, stop] of distanceStops.entries()) {
    if (Math.abs(stop - km) < Math.abs((distanceStops[best] ?? 0) - km)) best = i;
  }
  return best;
}

/**
 * The empty deck's next step out: the first stop at least twice the limit (10 → 20, 20 → 50, 100 → 200), so
 * one tap reaches about four times the area; past the last stop that does, no limit at all.
 */
export function widerDistance(km: number): number | undefined {
  return distanceStops.find((stop) => stop >= 2 * km);
}
