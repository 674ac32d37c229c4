import { z } from 'zod';
import { likeResponse, personListItem, usersProfileResponse } from '../../../../server/contract/discovery.ts';
import { api } from '../client.ts';

const message = z.object({ message: z.string() });

/** Matches, likers and their profiles (spec sections 3, 4). */
export const matchesQueries = {
  matches: () => api.get('/api/matches', z.array(personListItem)),
  likers: () => api.get('/api/likes', z.array(personListItem)),
  matchProfile: (profileId: number) => api.get(`/api/users_profile?profile_id=${profileId}`, usersProfileResponse).then((r) => r.users_profile),
  likerProfile: (profileId: number) => api.get(`/api/users_profile_liker?profile_id=${profileId}`, usersProfileResponse).then((r) => r.users_profile),
  unmatch: (profileId: number) => api.post('/api/unmatch', message, { profile_id: profileId }),
  like: (profileId: number) => api.post('/api/like', likeResponse, { profile_id: profileId }),
  dislike: (profileId: number) => api.post('/api/dislike', likeResponse, { profile_id: profileId }),
};
