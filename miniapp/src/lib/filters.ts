import { useSyncExternalStore } from 'react';
import { ageRange, maxDistanceRange, searchGenders } from '@contract/deckRules.ts';
import type { SearchQuery } from '@contract/discovery.ts';
import { clampAgeRange, distanceAt, indexOfDistance } from './filterStops.ts';
import { readStored, storageKeys, writeStored, type StorageKey } from './storage.ts';

/**
 * The deck's filters: the contract's search parameters (`searchQuery`) less `exclude` (the cards the deck
 * holds, not a choice of the user's), so a filter added there is typed here at once. They make the query
 * string (`filterParams`) and the cache key as they are, are kept in the browser (`filterSlots`), and both
 * filter screens (the menu, the empty deck) read and change them through `useDeckFilters` and `changeFilters`.
 */
export type DeckFilters = Omit<SearchQuery, 'exclude'>;
type FilterName = keyof DeckFilters;
export type GenderFilter = DeckFilters['gender'];
/** The contract's defaults: everyone 18 to 100, any gender, any distance. */
export const defaultFilters: DeckFilters = { ageMin: ageRange.min, ageMax: ageRange.max, gender: 'Any' };

/** A whole number from `min` to `max` as the contract coerces one (`Number(value)`), else undefined. */
function wholeIn(value: unknown, { min, max }: { readonly min: number; readonly max: number }): number | undefined {
  const n = Number(value);
  return Number.isInteger(n) && n >= min && n <= max ? n : undefined;
}

/**
 * Each stored filter read as the contract's `searchQuery` reads its field, without zod (issue 41: the deck
 * reads them before its first card, and zod is not in its first load); a value the contract would refuse is
 * the field's default. `filters.test.ts` holds these readers to the contract's schema.
 */
export const filterReaders: { [K in FilterName]-?: (value: unknown) => DeckFilters[K] } = {
  ageMin: (value) => wholeIn(value, ageRange) ?? defaultFilters.ageMin,
  ageMax: (value) => wholeIn(value, ageRange) ?? defaultFilters.ageMax,
  gender: (value) => searchGenders.find((gender) => gender === value) ?? defaultFilters.gender,
  maxDistance: (value) => (value === undefined ? undefined : wholeIn(value, maxDistanceRange)),
  // The contract takes only the texts 'true' and 'false'.
  verifiedOnly: (value) => (value === 'true' ? true : value === 'false' ? false : undefined),
};
/** A change to some filters; `undefined` clears an optional one (no distance limit). */
export type FilterChange = { [K in FilterName]?: DeckFilters[K] | undefined };

/** What a filter's stored text holds, before the contract's schema checks it. */
type Raw<F extends FilterName> = { [K in F]?: unknown };

interface Slot<F extends FilterName> {
  key: StorageKey;
  fields: readonly F[];
  read: (stored: string) => Raw<F>;
  /** null: nothing to keep (the key is removed). */
  write: (filters: DeckFilters) => string | null;
}
const slot = <F extends FilterName>(s: Slot<F>): Slot<F> => s;

/** The slots, when they keep every filter: one the contract gains fails the type check here until it has one. */
function everyFilter<F extends FilterName>(
  slots: Slot<F>[] & ([Exclude<FilterName, F>] extends [never] ? unknown : { unkept: Exclude<FilterName, F> }),
): Slot<F>[] {
  return slots;
}

/** Where each filter is kept: the spec's keys (section 3; the age range as one JSON pair), `maxDistance` beside them. */
const filterSlots = everyFilter([
  slot({
    key: storageKeys.ageRange,
    fields: ['ageMin', 'ageMax'],
    read: (stored) => {
      const pair: unknown = JSON.parse(stored);
      return Array.isArray(pair) && pair.length === 2 ? { ageMin: pair[0], ageMax: pair[1] } : {};
    },
    write: (filters) => JSON.stringify([filters.ageMin, filters.ageMax]),
  }),
  slot({
    key: storageKeys.selectedGender,
    fields: ['gender'],
    read: (gender) => ({ gender }),
    write: (filters) => filters.gender,
  }),
  slot({
    key: storageKeys.maxDistance,
    fields: ['maxDistance'],
    read: (maxDistance) => ({ maxDistance }),
    write: (filters) => (filters.maxDistance === undefined ? null : String(filters.maxDistance)),
  }),
  slot({
    key: storageKeys.verifiedOnly,
    fields: ['verifiedOnly'],
    read: (verifiedOnly) => ({ verifiedOnly }),
    write: (filters) => (filters.verifiedOnly ? 'true' : null),
  }),
]);

/** On the sliders' stops (a value from an older version, or typed by hand, lands on the nearest). */
function onStops(filters: DeckFilters): DeckFilters {
  const [ageMin, ageMax] = clampAgeRange([filters.ageMin, filters.ageMax]);
  return { ...filters, ageMin, ageMax, maxDistance: distanceAt(indexOfDistance(filters.maxDistance)) };
}

/** The stored texts of every slot, as they are (null: absent). */
function storedTexts(): (string | null)[] {
  return filterSlots.map(({ key }) => readStored(key));
}

/** The kept filters; each one missing or damaged is its default (the contract's), the others stay. */
function parseFilters(texts: readonly (string | null)[]): DeckFilters {
  const raw: Record<string, unknown> = {};
  for (const [i, { read }] of filterSlots.entries()) {
    const stored = texts[i];
    if (stored === null || stored === undefined) continue;
    try {
      Object.assign(raw, read(stored));
    } catch {
      /* damaged: the defaults */
    }
  }
  const filters: Record<string, unknown> = {};
  for (const [name, read] of Object.entries(filterReaders)) filters[name] = read(raw[name]);
  return onStops(filters as DeckFilters);
}

function keepFilters(filters: DeckFilters): void {
  for (const { key, write } of filterSlots) writeStored(key, write(filters));
}

/** The query string of `GET /api/search` for these filters: every parameter that has a value. */
export function filterParams(filters: DeckFilters): URLSearchParams {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) {
    // An unset switch is left out as an unset limit is: the query (and boot.js's early one) stays as it was.
    if (value !== undefined && value !== false) query.set(name, String(value));
  }
  return query;
}

/**
 * The filters in force, read again only when the stored texts differ from those they were read from (another
 * tab changed them, say), so the same object comes back while nothing changed (as useSyncExternalStore needs).
 * Where storage is unavailable a change lasts for the page: it is held here against the unchanged texts.
 */
let held: { texts: string; filters: DeckFilters } | null = null;
const listeners = new Set<() => void>();

export function currentFilters(): DeckFilters {
  const texts = storedTexts();
  const signature = JSON.stringify(texts);
  if (held?.texts !== signature) held = { texts: signature, filters: parseFilters(texts) };
  return held.filters;
}

/** Changes filters and keeps them; every screen showing them follows. Returns the filters now in force. */
export function changeFilters(change: FilterChange): DeckFilters {
  const changed = onStops({ ...currentFilters(), ...change } as DeckFilters);
  keepFilters(changed);
  held = { texts: JSON.stringify(storedTexts()), filters: changed };
  for (const listener of listeners) listener();
  return changed;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab's change: the menu and the deck show it (currentFilters reads it).
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

/** The filters in force, re-rendering when they change. */
export function useDeckFilters(): DeckFilters {
  return useSyncExternalStore(subscribe, currentFilters);
}
