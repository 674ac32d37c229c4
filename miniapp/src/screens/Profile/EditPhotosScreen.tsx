import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { maxPhotos, type OwnProfileResponse } from '@contract/profiles.ts';
import { useEditPhotos, useOwnProfile } from '../../api/queries/profiles.ts';
import { ErrorLine, Loading, QueryView } from '../../components/States.tsx';
import { errorText } from '../../lib/errorText.ts';
import { useSession } from '../../session/SessionProvider.tsx';
import { AddPhotoButton } from './AddPhotoButton.tsx';
import { PhotoCropper } from './PhotoCropper.tsx';
import { PhotoPreviews, usePhotoItems } from './PhotoPreviews.tsx';
import './Profile.css';

/** `/edit_photo` (also `/Foto`, `/cropImage`): add (cropped), remove and reorder photos; at least one stays. */
export default function EditPhotosScreen() {
  const profile = useOwnProfile({ fresh: true });
  // The form copies the profile once: from the copy read now, not a cached one that may be out of date.
  if (!profile.isFetchedAfterMount) return <Loading />;
  return (
    <QueryView query={profile} failedKey="app.errors.fetchProfileData">
      {(data) => <PhotoEditor profile={data} />}
    </QueryView>
  );
}

function PhotoEditor({ profile }: { profile: OwnProfileResponse }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { adopt } = useSession();
  const { items, add, remove, moveEarlier } = usePhotoItems(profile.photos);
  const [cropping, setCropping] = useState<string | null>(null);
  const editPhotos = useEditPhotos();
  const [progress, setProgress] = useState(0);
  /** Uploading, or done and on the way back to /profile. */
  const saving = editPhotos.isPending || editPhotos.isSuccess;
  /** A check of its own or a photo that cannot be opened; the save's own failure comes from the mutation. */
  const [problem, setProblem] = useState<string | null>(null);
  const error = problem ?? (editPhotos.error ? errorText(t, editPhotos.error, 'app.errors.updateProfile') : null);

  function save() {
    if (items.length === 0) return setProblem(t('app.wizard.photoRequired'));
    // The server keeps the order of the kept photos and appends the new ones: new photos go last.
    const kept = items.flatMap((i) => (i.kind === 'kept' ? [i.name] : []));
    const added = items.flatMap((i) => (i.kind === 'added' ? [i.blob] : []));
    setProblem(null);
    setProgress(0);
    editPhotos.mutate(
      {
        edits: { deleted: profile.photos.filter((n) => !kept.includes(n)), order: kept, added },
        onProgress: setProgress,
      },
      // The menu's photo comes from the session: the answer carries it as it is now.
      { onSuccess: (saved) => adopt(saved.current_user, () => void navigate('/profile', { replace: true })) },
    );
  }

  if (cropping)
    return (
      <section className="wizard">
        <h1>{t('app.profile.photosTitle')}</h1>
        <PhotoCropper
          url={cropping}
          onCancel={() => {
            URL.revokeObjectURL(cropping);
            setCropping(null);
          }}
          onDone={(blob) => {
            URL.revokeObjectURL(cropping);
            setCropping(null);
            add(blob);
          }}
        />
      </section>
    );

  return (
    <section className="wizard" aria-labelledby="photos-title">
      <h1 id="photos-title">{t('app.profile.photosTitle')}</h1>
      <p className="muted">{t('app.profile.photosText', { max: maxPhotos })}</p>
      <PhotoPreviews items={items} onRemove={remove} onMoveEarlier={moveEarlier} underReview={profile.under_review} />
      {items.some((i) => i.kind === 'kept' && profile.under_review?.includes(i.name)) && (
        <p className="hint">{t('verification.underReviewNote')}</p>
      )}
      {items.length < maxPhotos && (
        <AddPhotoButton
          onPicked={setCropping}
          onError={(message) => {
            setProblem(message);
            if (editPhotos.isError) editPhotos.reset();
          }}
        />
      )}
      {saving && (
        <progress className="upload-progress" max={1} value={progress} aria-label={t('app.wizard.uploading')} />
      )}
      <ErrorLine message={error} />
      <div className="actions wizard-nav">
        <button type="button" className="button secondary" onClick={() => void navigate('/profile')}>
          {t('app.matches.cancel')}
        </button>
        <button type="button" className="button" disabled={saving} onClick={save}>
          {saving ? t('app.wizard.uploading') : t('app.profile.save')}
        </button>
      </div>
    </section>
  );
}
