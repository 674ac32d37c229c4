import { z } from 'zod/mini';
import { currentUserResponse } from './accounts.ts';
import { ownProfileResponse } from './profiles.ts';

/**
 * What `POST /api/create_profile` and `POST /api/edit_profile` answer: the spec's message, plus the own
 * profile as `GET /api/profile` gives it and the user as `GET /api/current_user` gives it (the top bar and
 * the menu show the name, age and first photo), so the app need not ask for either again.
 */
export const profileSavedResponse = z.object({
  message: z.string(),
  profile: ownProfileResponse,
  current_user: currentUserResponse,
});
export type ProfileSavedResponse = z.infer<typeof profileSavedResponse>;
