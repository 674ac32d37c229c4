import { ageLimits, defaultAgeRange, genders, type GenderFilter } from './constants.ts';
import { readStored, storageKeys, writeStored } from './storage.ts';

/**
 * The slider (spec section 5): 18 to 100 in steps of 4 (18, 22, … 98, then 100 as the last stop), and the
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

export function storedAgeRange(): [number, number] {
  try {
    const parsed: unknown = JSON.parse(readStored(storageKeys.ageRange) ?? 'null');
    if (Array.isArray(parsed) && parsed.length === 2 && parsed.every((v) => typeof v === 'number')) {
      return clampAgeRange([parsed[0] as number, parsed[1] as number]);
    }
  } catch {
    /* a damaged value: use the default */
  }
  return [...defaultAgeRange];
}

export function storeAgeRange(range: [number, number]): void {
  writeStored(storageKeys.ageRange, JSON.stringify(range));
}

export function storedGender(): GenderFilter {
  const value = readStored(storageKeys.selectedGender);
  return (genders as readonly string[]).includes(value ?? '') ? (value as GenderFilter) : 'Any';
}

export function storeGender(gender: GenderFilter): void {
  writeStored(storageKeys.selectedGender, gender);
}
