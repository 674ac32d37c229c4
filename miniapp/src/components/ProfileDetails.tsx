import { useTranslation } from 'react-i18next';
import type { UsersProfileResponse } from '@contract/discovery.ts';
import { photoUrl } from '../lib/photos.ts';
import './ProfileDetails.css';

export type OtherProfile = UsersProfileResponse['users_profile'];

/** Another person's profile: photos to swipe through (scroll snap), name, age, city, distance, bio. */
export function ProfileDetails({ profile }: { profile: OtherProfile }) {
  const { t } = useTranslation();
  return (
    <article className="other-profile" aria-labelledby="other-name">
      <div className="photo-strip" tabIndex={0} aria-label={t('app.matches.photos', { name: profile.name })}>
        {profile.photos.map((photo, i) => (
          <img
            key={photo}
            src={photoUrl(photo)}
            alt={t('app.matches.photoOf', { n: i + 1, total: profile.photos.length, name: profile.name })}
            width={640}
            height={852}
            loading={i === 0 ? 'eager' : 'lazy'}
            decoding="async"
          />
        ))}
      </div>
      <h1 id="other-name">
        {profile.name}, {profile.age}
      </h1>
      <p className="muted">
        {profile.city}
        {profile.distance !== null && ` · ${t('app.matches.distance', { km: profile.distance })}`}
      </p>
      {profile.bio && <p className="other-bio">{profile.bio}</p>}
    </article>
  );
}
