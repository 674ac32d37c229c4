import type { AdminPersonCard } from '@contract/admin.ts';
import { useTranslation } from 'react-i18next';

/** Score as the classifier gave it, two decimals; a dash when nothing screened the photo. */
export const score = (value: number | null) => (value === null ? '—' : value.toFixed(2));

/** A person as moderators see them: name, age, city, bio, flags, and every photo, held ones marked. */
export function PersonCard({ person }: { person: AdminPersonCard }) {
  const { t } = useTranslation();
  if (person.profile_id === null) return <p className="muted">{t('app.admin.person.noProfile')}</p>;
  return (
    <div className="admin-person">
      <p className="admin-person-name">
        <strong>{person.name}</strong>{' '}
        <span className="muted">{t('app.admin.person.ageCity', { age: person.age, city: person.city })}</span>
      </p>
      <p className="admin-flags">
        {person.verified && <span className="admin-flag ok">{t('app.admin.person.verified')}</span>}
        {person.held && <span className="admin-flag">{t('app.admin.reports.held')}</span>}
        {person.banned && <span className="admin-flag danger">{t('app.admin.reports.banned')}</span>}
      </p>
      {person.bio && <p className="admin-bio">{person.bio}</p>}
      <ul className="admin-photos">
        {person.photos.map((photo) => (
          <li key={photo.id} className={photo.moderation === 'held' ? 'held' : undefined}>
            <img src={photo.url} alt="" loading="lazy" />
            {photo.moderation === 'held' && (
              <span className="admin-photo-badge">
                {t('app.admin.person.photoHeld', { score: score(photo.screen_score) })}
              </span>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
