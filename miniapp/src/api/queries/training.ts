import { useQuery } from '@tanstack/react-query';
import { api, lazySchema } from '../client.ts';
import { queryKeys } from './keys.ts';
import { isCard } from './search.ts';

const trainingAnswer = lazySchema(() => import('@contract/discovery.ts').then((m) => m.searchResult), isCard);

/** `/training`'s sample card: nobody real, the same for everyone. */
export function useTrainingCard() {
  return useQuery({
    queryKey: queryKeys.trainingCard(),
    queryFn: () => api.get('/api/training', trainingAnswer),
    staleTime: Infinity,
  });
}
