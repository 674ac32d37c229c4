import { settingsResponse, type SettingsChanges } from '../../../../server/contract/discovery.ts';
import type { GenderFilter } from '../../lib/constants.ts';
import { api } from '../client.ts';

/** The gender preference the server last confirmed in this page's life (saved once, not per search). */
let syncedGender: GenderFilter | null = null;

/** The menu's server-side switches (private mode, bot notifications) and the stored gender preference. */
export const settingsQueries = {
  load: () => api.get('/api/settings', settingsResponse),
  save: (changes: SettingsChanges) => api.post('/api/settings', settingsResponse, changes),
  /**
   * The deck's gender filter is also who the user wants to be shown to (others' reciprocal rule reads it),
   * so it is saved on the server with an explicit POST: once when the deck opens, and when the filter
   * changes. Failures are left for the next try: the filter itself lives in the browser.
   */
  async syncGender(gender: GenderFilter): Promise<void> {
    if (syncedGender === gender) return;
    try {
      syncedGender = (await settingsQueries.save({ preferred_gender: gender })).preferred_gender;
    } catch {
      syncedGender = null;
    }
  },
};
