import { isPremium } from '../premium/index.ts';
import type { Profile } from '../../../db/schema.ts';
import type { Language } from '../../../locales/index.ts';
import { cityForReader } from '../location/index.ts';
import { presentPrompts } from '../prompts/index.ts';
import type { OwnProfileResponse } from '../../contract/profiles.ts';

/**
 * The owner's view of their profile. An allow-list: a new column shows up only when added here. The city is
 * named in the owner's language.
 */
export function presentOwnProfile(
  profile: Profile,
  photos: { file_name: string; moderation: string }[],
  premiumUntil: string | null,
  now: Date,
  language: Language,
): OwnProfileResponse {
  return {
    id: profile.id,
    user_id: profile.user_id,
    name: profile.name,
    age: profile.age,
    gender: profile.gender,
    preferred_gender: profile.preferred_gender,
    bio: profile.bio,
    city: cityForReader(profile, language),
    place_id: profile.place_id,
    latitude: profile.latitude,
    longitude: profile.longitude,
    photos: photos.map((p) => p.file_name),
    prompts: presentPrompts(profile.prompts, language),
    isActive: isPremium(premiumUntil, now),
    end_date: premiumUntil,
    verified: profile.verified === 1,
    under_review: photos.filter((p) => p.moderation === 'held').map((p) => p.file_name),
  };
}
