import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { settingsResponse, type SettingsChanges } from '@contract/discovery.ts';
import type { GenderFilter } from '../../lib/constants.ts';
import { api } from '../client.ts';
import { queryClient } from '../queryClient.ts';
import { queryKeys } from './keys.ts';

const saveSettings = (changes: SettingsChanges) => api.post('/api/settings', settingsResponse, changes);

/** The menu's server-side switches (private mode, bot notifications) and the stored gender preference. */
export function useSettings(enabled: boolean) {
  return useQuery({ queryKey: queryKeys.settings(), queryFn: () => api.get('/api/settings', settingsResponse), enabled });
}

/** Saves server-side switches; the cache takes the server's answer (the switch shows the change meanwhile). */
export function useSaveSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveSettings,
    onSuccess: (saved) => client.setQueryData(queryKeys.settings(), saved),
  });
}

/** The gender preference the server last confirmed in this page's life (saved once, not per search). */
let syncedGender: GenderFilter | null = null;

/**
 * The deck's gender filter is also who the user wants to be shown to (others' reciprocal rule reads it),
 * so it is saved on the server with an explicit POST: once when the deck opens, and when the filter
 * changes. Failures are left for the next try: the filter itself lives in the browser. Called outside
 * any screen's life (the deck's start, a tap in the menu), hence the shared client rather than a hook.
 */
export async function syncGender(gender: GenderFilter): Promise<void> {
  if (syncedGender === gender) return;
  try {
    const saved = await saveSettings({ preferred_gender: gender });
    syncedGender = saved.preferred_gender;
    queryClient.setQueryData(queryKeys.settings(), saved);
  } catch {
    syncedGender = null;
  }
}
