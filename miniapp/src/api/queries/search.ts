import { z } from 'zod';
import { likeResponse, searchResult } from '../../../../server/contract/discovery.ts';
import type { GenderFilter } from '../../lib/constants.ts';
import { ApiError, api } from '../client.ts';

/** `GET /api/search`: the next person, `null` when nobody is left (404), or `'no_profile'` (the spec's flag). */
const searchAnswer = z.union([searchResult, z.object({ userprofile: z.literal(false) })]);
export type Card = z.infer<typeof searchResult>;

export const searchQueries = {
  async next(filters: { ageRange: [number, number]; gender: GenderFilter }, exclude: number[]): Promise<Card | null | 'no_profile'> {
    const query = new URLSearchParams({ ageMin: String(filters.ageRange[0]), ageMax: String(filters.ageRange[1]), gender: filters.gender });
    if (exclude.length) query.set('exclude', exclude.join(','));
    try {
      const answer = await api.get(`/api/search?${query.toString()}`, searchAnswer);
      return 'userprofile' in answer ? 'no_profile' : answer;
    } catch (error) {
      if (error instanceof ApiError && (error.status === 404 || error.status === 204)) return null;
      throw error;
    }
  },
  like: (profileId: number) => api.post('/api/like', likeResponse, { profile_id: profileId }),
  dislike: (profileId: number) => api.post('/api/dislike', likeResponse, { profile_id: profileId }),
};
