import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { profileQueries } from '../../api/queries/profiles.ts';
import { useResource } from '../../api/useResource.ts';
import { ConfirmSheet } from '../../components/ConfirmSheet.tsx';
import { ErrorLine, ErrorState, Loading } from '../../components/States.tsx';
import { errorText } from '../../lib/errorText.ts';
import { useSession } from '../../session/SessionProvider.tsx';
import { ProfileDetails } from '../Matches/ProfileDetails.tsx';
import '../Matches/Matches.css';

/** `/profile` (spec section 2): the own profile as others see it, with Edit and Delete (confirmed). */
export default function OwnProfileScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { refresh } = useSession();
  const [profile, reload] = useResource(profileQueries.own);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function remove() {
    setBusy(true);
    setError(null);
    try {
      await profileQueries.remove();
      // Together: /profile without a profile would send the user to the wizard, and the spec says go to /.
      await refresh(() => void navigate('/', { replace: true }));
    } catch (failure) {
      setConfirming(false);
      setBusy(false);
      setError(errorText(t, failure, 'app.errors.deleteProfileFailed', 'app.errors.deleteProfileError'));
    }
  }

  if (profile.state === 'loading') return <Loading />;
  if (profile.state === 'error') return <ErrorState message={errorText(t, profile.error, 'app.errors.fetchProfile')} onRetry={reload} />;
  const p = profile.data;
  return (
    <section className="person-screen">
      <ProfileDetails profile={{ id: p.id, name: p.name, age: p.age, city: p.city, gender: p.gender, bio: p.bio, photos: p.photos, distance: null }} />
      <div className="person-actions">
        <Link className="button block" to="/edit_profile">
          {t('app.profile.edit')}
        </Link>
        <Link className="button secondary block" to="/edit_photo">
          {t('app.profile.editPhotos')}
        </Link>
        <button type="button" className="button secondary block danger" onClick={() => setConfirming(true)}>
          {t('app.profile.delete')}
        </button>
        <ErrorLine message={error} />
      </div>
      <ConfirmSheet
        open={confirming}
        title={t('app.profile.deleteTitle')}
        text={t('app.profile.deleteText')}
        confirmLabel={t('app.profile.deleteConfirm')}
        busy={busy}
        onConfirm={() => void remove()}
        onClose={() => setConfirming(false)}
      />
    </section>
  );
}
