import type { SettingsChanges } from '@contract/discovery.ts';
import { changeFilters, type FilterChange, type DeckFilters, type GenderFilter } from '../../lib/filters.ts';
import { api, lazySchema } from '../client.ts';
import { whenCached } from '../sessionCache.ts';
import { sessionGeneration } from '../sessionGeneration.ts';
import { queryKeys } from './keys.ts';

/**
 * Checked in full after the first load: the deck saves the gender preference as it opens (`syncGender`),
 * and its first card comes without zod (issue 41). What the menu's switches read is checked at once.
 */
export const settingsResponse = lazySchema(
  () => import('@contract/discovery.ts').then((m) => m.settingsResponse),
  (answer) => typeof answer.private_mode === 'boolean' && typeof answer.preferred_gender === 'string',
);
export const saveSettings = (changes: SettingsChanges) => api.post('/api/settings', settingsResponse, changes);

/** A gender preference and the session (api/sessionGeneration.ts) it is for. */
interface GenderFor {
  gender: GenderFilter;
  generation: number;
}

/** The preference the server last confirmed, and the newest one asked for. */
let synced: GenderFor | null = null;
let wanted: GenderFor | null = null;
/** One POST at a time, so the server ends on the newest choice however fast the taps come. */
let sending = false;

/**
 * The deck's gender filter is also who the user wants to be shown to (others' reciprocal rule reads it),
 * so it is saved on the server with an explicit POST: once when the deck opens, and when the filter
 * changes. Failures are left for the next try: the filter itself lives in the browser. Called outside
 * any screen's life (the deck's start, a tap in the menu), hence the shared client rather than a hook; the
 * deck's first card comes before the query cache (issue 41), which then has nothing to update.
 */
export async function syncGender(gender: GenderFilter): Promise<void> {
  wanted = { gender, generation: sessionGeneration() };
  // The POST under way sends this one after it.
  if (sending) return;
  sending = true;
  try {
    for (;;) {
      const target: GenderFor = wanted;
      // Asked for by someone signed in before: whoever is signed in now asks for their own.
      if (target.generation !== sessionGeneration()) return;
      if (synced?.generation === target.generation && synced.gender === target.gender) return;
      try {
        const saved = await saveSettings({ preferred_gender: target.gender });
        // An answer for someone no longer signed in stays out of the new user's cache.
        if (target.generation !== sessionGeneration()) continue;
        synced = { gender: saved.preferred_gender, generation: target.generation };
        whenCached((client) => client.setQueryData(queryKeys.settings(), saved));
        // A newer choice came meanwhile: the loop sends it unless the answer already matches it.
        if (wanted === target) return;
      } catch {
        synced = null;
        if (wanted === target) return;
      }
    }
  } finally {
    sending = false;
  }
}

/**
 * Changes the deck's filters (kept in the browser, see lib/filters.ts) from either filter screen; a new gender
 * is also saved on the server for someone with a profile, since others' reciprocal rule reads it.
 */
export function changeDeckFilters(change: FilterChange, hasProfile: boolean): DeckFilters {
  const changed = changeFilters(change);
  if (hasProfile && change.gender !== undefined) void syncGender(changed.gender);
  return changed;
}
