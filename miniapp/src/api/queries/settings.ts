import { settingsResponse, type SettingsResponse } from '../../../../server/contract/discovery.ts';
import { api } from '../client.ts';

/** The menu's server-side switches: private mode (hidden from search) and bot notifications. */
export const settingsQueries = {
  load: () => api.get('/api/settings', settingsResponse),
  save: (changes: Partial<SettingsResponse>) => api.post('/api/settings', settingsResponse, changes),
};
