import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useDeleteProfile, useOwnProfile } from '../../api/queries/profiles.ts';
import { ConfirmSheet } from '../../components/ConfirmSheet.tsx';
import { ProfileDetails } from '../../components/ProfileDetails.tsx';
import { ErrorLine, QueryView } from '../../components/States.tsx';
import { errorText } from '../../lib/errorText.ts';
import { useSession } from '../../session/SessionProvider.tsx';

/** `/profile` (spec section 2): the own profile as others see it, with Edit and Delete (confirmed). */
export default function OwnProfileScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { refresh } = useSession();
  const profile = useOwnProfile();
  const remove = useDeleteProfile();
  const [confirming, setConfirming] = useState(false);

  function confirmDelete() {
    remove.mutate(undefined, {
      // Together: /profile without a profile would send the user to the wizard, and the spec says go to /.
      onSuccess: () => void refresh(() => void navigate('/', { replace: true })),
      onError: () => setConfirming(false),
    });
  }

  return (
    <QueryView query={profile} failedKey="app.errors.fetchProfile">
      {(p) => (
        <section className="person-screen">
          <ProfileDetails
            profile={{
              id: p.id,
              name: p.name,
              age: p.age,
              city: p.city,
              gender: p.gender,
              bio: p.bio,
              photos: p.photos,
              distance: null,
              prompts: p.prompts,
              active_recently: null,
              verified: p.verified,
            }}
          />
          {p.under_review !== undefined && p.under_review.length > 0 && (
            <p className="hint under-review-count">
              {t('verification.underReviewCount', { count: p.under_review.length })}
            </p>
          )}
          <div className="person-actions">
            {p.verified !== true && (
              <Link className="button secondary block" to="/verification">
                {t('verification.cta')}
              </Link>
            )}
            <Link className="button block" to="/edit_profile">
              {t('app.profile.edit')}
            </Link>
            <Link className="button secondary block" to="/edit_photo">
              {t('app.profile.editPhotos')}
            </Link>
            <button type="button" className="button secondary block danger" onClick={() => setConfirming(true)}>
              {t('app.profile.delete')}
            </button>
            <ErrorLine
              message={
                remove.error
                  ? errorText(t, remove.error, 'app.errors.deleteProfileFailed', 'app.errors.deleteProfileError')
                  : null
              }
            />
          </div>
          <ConfirmSheet
            open={confirming}
            title={t('app.profile.deleteTitle')}
            text={t('app.profile.deleteText')}
            confirmLabel={t('app.profile.deleteConfirm')}
            // Deleted: still busy while the session is read again and the app leaves for /.
            busy={remove.isPending || remove.isSuccess}
            onConfirm={confirmDelete}
            onClose={() => setConfirming(false)}
          />
        </section>
      )}
    </QueryView>
  );
}
