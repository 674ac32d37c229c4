import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { UserProfileSummary } from '@contract/profiles.ts';
import { photoUrl } from '../../lib/photos.ts';

/** The menu's first card: the own profile leading to /profile, or the invitation to create one. */
export function OwnCard({ profile }: { profile: UserProfileSummary | null }) {
  const { t } = useTranslation();
  const name = typeof profile?.name === 'string' ? profile.name : '';
  return (
    <section className="card own" aria-label={t('app.menu.profile')}>
      {profile ? (
        <Link to="/profile" className="own-link">
          <span className="avatar" aria-hidden="true">
            {profile.photo ? <img src={photoUrl(profile.photo, 'thumb')} alt="" /> : name.slice(0, 1) || '✦'}
          </span>
          <span>
            <strong>{name}</strong>
            {typeof profile.age === 'number' && <>, {profile.age}</>}
            <small className="muted block">{t('app.menu.edit')}</small>
          </span>
        </Link>
      ) : (
        <div className="own-empty">
          <span className="avatar" aria-hidden="true">
            ✦
          </span>
          <div>
            <strong>{t('app.menu.noProfileTitle')}</strong>
            <p className="muted">{t('app.menu.noProfileText')}</p>
            <Link to="/CreateProfile" className="button small">
              {t('app.menu.createProfile')}
            </Link>
          </div>
        </div>
      )}
    </section>
  );
}
