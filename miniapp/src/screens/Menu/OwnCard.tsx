import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { UserProfileSummary } from '@contract/profiles.ts';
import { useOwnProfile } from '../../api/queries/profiles.ts';
import { VerifiedBadge } from '../../components/VerifiedBadge.tsx';
import { photoUrl } from '../../lib/photos.ts';

/** The menu's first card: the own profile leading to /profile (with the verified badge, issue 40), or the invitation to create one. */
export function OwnCard({ profile }: { profile: UserProfileSummary | null }) {
  const { t } = useTranslation();
  // The badge is the own profile's (the session's summary does not carry it); a profile saved here answers it.
  const verified = useOwnProfile({ enabled: profile !== null }).data?.verified === true;
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
            <VerifiedBadge verified={verified} />
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

/** Under the own card: the way to photo verification (issue 40), saying whether the photos are verified. */
export function VerificationRow() {
  const { t } = useTranslation();
  const verified = useOwnProfile().data?.verified === true;
  return (
    <nav className="card links" aria-label={t('verification.title')}>
      <Link to="/verification" className="row link-row verification-row">
        <span>
          {t('verification.title')}
          <small className="muted block">
            {verified ? t('verification.menuHintVerified') : t('verification.menuHintNone')}
          </small>
        </span>
      </Link>
    </nav>
  );
}
