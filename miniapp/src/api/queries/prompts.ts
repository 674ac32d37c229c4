import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { promptListResponse } from '@contract/prompts.ts';
import { api } from '../client.ts';
import { queryKeys } from './keys.ts';

/**
 * Every prompt a profile may answer (`GET /api/prompts`), in the interface's language: the server names
 * them in the account's language, which the app follows. The list changes only with a release.
 */
export function usePromptList() {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: queryKeys.prompts(i18n.language),
    queryFn: () => api.get('/api/prompts', promptListResponse),
    staleTime: Infinity,
  });
}
