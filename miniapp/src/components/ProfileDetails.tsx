import { useTranslation } from 'react-i18next';
import type { UsersProfileResponse } from '@contract/discovery.ts';
import { ActiveRecently } from './ActiveRecently.tsx';
import { PhotoGallery } from './PhotoGallery.tsx';
import { PromptAnswers } from './PromptAnswers.tsx';
import { VerifiedBadge } from './VerifiedBadge.tsx';
import './ProfileDetails.css';

export type OtherProfile = UsersProfileResponse['users_profile'];

/**
 * Someone's profile (another person's, or the own one as others see it): the photo gallery as on the deck,
 * name, age, how recently they were active, city, distance, bio, the answered prompts.
 */
export function ProfileDetails({ profile }: { profile: OtherProfile }) {
  const { t } = useTranslation();
  return (
    <article className="other-profile" aria-labelledby="other-name">
      <div className="profile-gallery" role="group" aria-label={t('app.matches.photos', { name: profile.name })}>
        <PhotoGallery photos={profile.photos} name={profile.name} />
      </div>
      <h1 id="other-name">
        {profile.name}, {profile.age}
        <VerifiedBadge verified={profile.verified} />
      </h1>
      <ActiveRecently activity={profile.active_recently} gender={profile.gender} />
      <p className="muted">
        {profile.city}
        {profile.distance !== null && ` · ${t('app.matches.distance', { km: profile.distance })}`}
      </p>
      {profile.bio && <p className="other-bio">{profile.bio}</p>}
      <PromptAnswers prompts={profile.prompts} />
    </article>
  );
}
