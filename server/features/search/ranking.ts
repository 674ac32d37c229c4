import type { ActivityBucket } from '../profiles/index.ts';
import { kmPerDegree } from './distance.ts';
import { searchBoxSteps } from './rules.ts';

/**
 * The deck's order, every constant of it in one place (docs/discovery.md "Ranking"). Two measures:
 *
 * - The ranking distance `e` (km), what the search scans by: the flat distance stretched by how far the
 *   person's age is from the reader's target age (`ageStretch`, 1 within `ageGraceYears`, at most
 *   1 + `ageStretchMax`), about a neighbourhood's width (`nearbyKm`) so that age still counts next door:
 *   `e = stretch * (flat + nearbyKm) - nearbyKm`. For someone of about the target age it is the distance
 *   itself; never less than it, so a box holding a flat circle holds everyone whose `e` is inside it.
 *   Cards come tier by tier, as before: the box steps (rules.ts searchBoxSteps) are circles of `e`.
 * - The score (km, lower first), what orders people within a tier: `e` stretched again by how long ago
 *   they were last active (`activityStretch`), less the boosts (premium, liked you), which never take
 *   off more than half of it.
 *
 * The target age is the reader's own with the default range (18-100), else the middle of their range.
 * Worked through for a 30-year-old on the default filter: 8 km and 2 years apart is e = 8; 1 km and 10
 * years apart is 3.4 * 6 - 5 = 15.4, later; his age at 45 km (e = 45) comes after his age at 8 km; and
 * of two people alike, the one last active a month ago (score 1.5 e) after the one active today (e).
 */

/** Boosts, km taken off the score, never more than half of it: they reorder people about as near. */
export const premiumBoostKm = 5;
export const likedYouBoostKm = 10;

/**
 * Distances inside a neighbourhood hardly matter next to age: the age stretch applies to distance plus this.
 * Large enough that someone 10 years apart in the reader's own grid cell (0 km) still comes after someone
 * their age 8 km away (and a grid cell's rounding) : 3.4 * 5 - 5 = 12.
 */
export const nearbyKm = 5;
/** Years either side of the target age that count as the same age. */
export const ageGraceYears = 2;
/** The most the age gap stretches (added to 1), reached this many years beyond the grace; linear before. */
export const ageStretchMax = 3;
export const ageStretchFullYears = 10;
export const ageStretchPerYear = ageStretchMax / ageStretchFullYears;

/** How the score grows with the time since the person was last active (profiles/activity.ts buckets). */
export const activityStretch: Readonly<Record<ActivityBucket, number>> = { today: 1, week: 1.2, month: 1.5, older: 2 };

/** The contract's default age range: with it the target is the reader's own age. */
const defaultRange = { min: 18, max: 100 };

/** The age a reader's deck prefers: their own on the default range, else the middle of the range they chose. */
export function targetAge(myAge: number, ageMin: number, ageMax: number): number {
  return ageMin === defaultRange.min && ageMax === defaultRange.max ? myAge : (ageMin + ageMax) / 2;
}

/** The age stretch (1 to 1 + ageStretchMax) of someone `age` years old for a deck preferring `target`. */
export function ageStretch(age: number, target: number): number {
  // In the branches the SQL takes (filters.ts rankingKmSql), so both compute the same doubles.
  const gap = Math.abs(age - target);
  if (gap <= ageGraceYears) return 1;
  if (gap >= ageGraceYears + ageStretchFullYears) return 1 + ageStretchMax;
  return 1 + ageStretchPerYear * (gap - ageGraceYears);
}

/** The largest age stretch among the ages of a range: at one of its ends. */
export function maxAgeStretch(ageMin: number, ageMax: number, target: number): number {
  return Math.max(ageStretch(ageMin, target), ageStretch(ageMax, target));
}

/** The ranking distance `e` of someone `flat` km away (the ordering's flat metric), `age` years old; Infinity without a position. */
export function rankingKm(flat: number, age: number, target: number): number {
  if (!Number.isFinite(flat)) return Number.POSITIVE_INFINITY;
  return ageStretch(age, target) * (flat + nearbyKm) - nearbyKm;
}

/** Inverse of `rankingKm` for one stretch: the flat distance at which someone of that stretch reaches `e` (never below 0). */
export function flatForRankingKm(e: number, stretch: number): number {
  return Math.max(0, (e + nearbyKm) / stretch - nearbyKm);
}

/** The score within a tier: `e` stretched by inactivity, less the bounded boosts. */
export function scoreOf(e: number, activity: ActivityBucket, boosts: { premium: boolean; likedMe: boolean }): number {
  if (!Number.isFinite(e)) return Number.POSITIVE_INFINITY;
  const stretched = e * activityStretch[activity];
  const boost = (boosts.premium ? premiumBoostKm : 0) + (boosts.likedMe ? likedYouBoostKm : 0);
  return stretched - Math.min(boost, stretched / 2);
}

/**
 * The tier of someone at ranking distance `e`: the index of the first box step (rules.ts searchBoxSteps) whose
 * circle of `e` holds them, the last (everywhere) for anyone, unlocated too. Cards come tier by tier: a nearer
 * tier's people all come before a farther tier's, whatever their scores (a fresh scan answers from the first
 * step that holds anyone). Near a pole a step's box is narrower than its circle; nothing there is kept apart.
 */
export function tierOf(e: number): number {
  // A plain loop over kilometres worked out once: the search's sorts call this twice a comparison.
  let tier = 0;
  while (tier < tierEdgesKm.length && !(e <= (tierEdgesKm[tier] ?? 0))) tier++;
  return tier;
}

/** Each box step's circle in kilometres, but the last (everywhere), computed as plainSearch's withinCircle does. */
const tierEdgesKm = searchBoxSteps.filter((step) => step !== 180).map((step) => step * kmPerDegree);

/**
 * The deck's order of two ranked people (`flat`: ranking distance; `score`): tier first, then score; 0 when
 * they tie (the caller breaks ties). A pool holds people of several tiers: made by a scan that went past
 * empty steps (the people the app holds lie there), and then joined by whoever becomes eligible in any of them.
 * Ordered by score alone, someone who became visible in a nearer tier (a private person's like; a newcomer)
 * but scores worse, inactive or older than the target, waited behind the farther people a fresh scan would
 * not even reach yet (searchEquivalence.test.ts, seed 476574433 case 39).
 */
export function compareRanked(a: { flat: number; score: number }, b: { flat: number; score: number }): number {
  const tiers = tierOf(a.flat) - tierOf(b.flat);
  if (tiers !== 0) return tiers;
  return a.score === b.score ? 0 : a.score < b.score ? -1 : 1;
}
