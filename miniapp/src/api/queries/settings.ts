import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../client.ts';
import { saveSettings, settingsResponse } from './deckSettings.ts';
import { queryKeys } from './keys.ts';

/** The menu's server-side switches (private mode, bot notifications) and the stored gender preference. */
export function useSettings(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.settings(),
    queryFn: () => api.get('/api/settings', settingsResponse),
    enabled,
  });
}

/** Saves server-side switches; the cache takes the server's answer (the switch shows the change meanwhile). */
export function useSaveSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveSettings,
    onSuccess: (saved) => client.setQueryData(queryKeys.settings(), saved),
  });
}
