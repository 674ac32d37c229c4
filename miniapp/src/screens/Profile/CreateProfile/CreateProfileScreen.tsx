import { useEffect, useReducer, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useCreateProfile } from '../../../api/queries/profiles.ts';
import { ConfirmSheet } from '../../../components/ConfirmSheet.tsx';
import { ErrorLine, Loading } from '../../../components/States.tsx';
import { useClosingConfirmation } from '../../../components/useClosingConfirmation.ts';
import { errorText } from '../../../lib/errorText.ts';
import { useSession } from '../../../session/SessionProvider.tsx';
import { AboutStep } from './AboutStep.tsx';
import { LocationStep } from './LocationStep.tsx';
import { PhotosStep } from './PhotosStep.tsx';
import { PromptsStep } from './PromptsStep.tsx';
import { ReviewStep } from './ReviewStep.tsx';
import {
  clearDraft,
  type Draft,
  newDraftId,
  readDraft,
  readDraftPhotos,
  writeDraft,
  writeDraftPhotos,
} from './wizardDraft.ts';
import { prefilledName } from './prefilledName.ts';
import { initialWizard, promptsStep, stepCount, stepProblem, wizardReducer } from './wizardState.ts';
import '../Profile.css';

/**
 * `/CreateProfile` (spec sections 2, 5, 9): 1 name, age, gender; 2 location (automatic or by city name);
 * 3 photos cropped in the browser; 4 prompts, optional (issue 38); 5 review and Create, with upload progress. Each step checks its own
 * fields before Next; Back from step 2 on. The steps share one state (wizardState.ts), kept as a draft
 * of this user's across reloads until Create or Cancel (wizardDraft.ts).
 */
export default function CreateProfileScreen() {
  const { session } = useSession();
  // The draft is the user's: wait to know who that is (a reload starts with the session loading).
  if (session.status === 'loading') return <Loading />;
  const userId = session.status === 'signedIn' ? session.userId : null;
  return <Wizard key={userId ?? 'nobody'} userId={userId} />;
}

function Wizard({ userId }: { userId: number | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { adopt } = useSession();
  // Read once: the draft left by a reload, or a new one (none kept without a user id).
  const [stored] = useState<Draft | null>(() => (userId === null ? null : readDraft(userId)));
  // A new draft inside Telegram starts with the name Telegram knows (issue 39); the user may change it.
  const [draft] = useState<Draft | null>(
    () =>
      stored ??
      (userId === null ? null : { id: newDraftId(userId), fields: { ...initialWizard, name: prefilledName() } }),
  );
  const [state, dispatch] = useReducer(wizardReducer, draft ? { ...initialWizard, ...draft.fields } : initialWizard);
  /**
   * The stored draft's photos are back from IndexedDB (a new draft has none to wait for): only then are
   * changes written, and Next and Create wait for it, so nothing goes on without the photos.
   */
  const [photosRestored, setPhotosRestored] = useState(stored === null);
  /** Created or cancelled: nothing more is written to the draft. */
  const finished = useRef(false);
  const [cancelling, setCancelling] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const createProfile = useCreateProfile();
  const [progress, setProgress] = useState(0);
  // Uploading, or created and on the way to /training.
  const uploading = createProfile.isPending || createProfile.isSuccess;
  const { step } = state;
  // Anything entered and not yet created: Telegram asks before closing.
  useClosingConfirmation(
    !uploading &&
      !leaving &&
      (state.name !== '' ||
        state.age !== '' ||
        state.bio !== '' ||
        state.cityInput !== '' ||
        state.photos.length > 0 ||
        state.prompts.length > 0),
  );

  // Previews live as object URLs: let them go when the wizard closes.
  const previews = useRef(state.photos);
  useEffect(() => {
    previews.current = state.photos;
  }, [state.photos]);
  useEffect(() => () => previews.current.forEach((p) => URL.revokeObjectURL(p.url)), []);

  useEffect(() => {
    if (!stored) return;
    let live = true;
    void readDraftPhotos(stored.id).then((blobs) => {
      if (!live) return;
      if (blobs.length)
        dispatch({ type: 'photosRestored', photos: blobs.map((blob) => ({ blob, url: URL.createObjectURL(blob) })) });
      setPhotosRestored(true);
    });
    return () => {
      live = false;
    };
  }, [stored]);

  const { name, age, gender, city, placeId, coords, manual, cityInput, bio, prompts, photos } = state;
  useEffect(() => {
    if (!draft || userId === null || finished.current) return;
    writeDraft(userId, {
      id: draft.id,
      fields: { step, name, age, gender, city, placeId, coords, manual, cityInput, bio, prompts },
    });
  }, [draft, userId, step, name, age, gender, city, placeId, coords, manual, cityInput, bio, prompts]);
  useEffect(() => {
    if (!draft || !photosRestored || finished.current) return;
    void writeDraftPhotos(
      draft.id,
      photos.map((p) => p.blob),
    );
  }, [draft, photosRestored, photos]);

  /** Create or Cancel: the draft goes, and nothing writes it again. */
  function finish(): Promise<void> {
    finished.current = true;
    return draft && userId !== null ? clearDraft(userId, draft.id) : Promise.resolve();
  }

  function cancel() {
    setLeaving(true);
    void finish().then(() => void navigate('/Menu', { replace: true }));
  }

  function next() {
    const problem = stepProblem(state);
    dispatch({ type: 'next', problem: problem && t(problem) });
  }

  function create() {
    const { gender } = state;
    if (!gender) return;
    dispatch({ type: 'failed', message: null });
    setProgress(0);
    createProfile.mutate(
      {
        profile: {
          name: state.name.trim(),
          age: Number(state.age),
          gender,
          city: state.city,
          placeId: state.placeId,
          bio: state.bio,
          prompts: state.prompts,
          latitude: state.coords?.[0] ?? null,
          longitude: state.coords?.[1] ?? null,
          photos: state.photos.map((p) => p.blob),
        },
        onProgress: setProgress,
      },
      {
        onSuccess: (created) => {
          void finish();
          adopt(created.current_user, () => void navigate('/training', { replace: true }));
        },
        onError: (failure) =>
          dispatch({
            type: 'failed',
            message: errorText(t, failure, 'app.errors.submitProfile', 'app.errors.createProfile'),
          }),
      },
    );
  }

  return (
    <section className="wizard" aria-labelledby="wizard-title">
      <div className="wizard-head">
        <h1 id="wizard-title">{t('app.wizard.title')}</h1>
        {/* Not while cropping: the cropper has its own Cancel, for the one photo. */}
        {!state.cropping && (
          <button
            type="button"
            className="button secondary small"
            disabled={uploading}
            onClick={() => setCancelling(true)}
          >
            {t('app.wizard.cancel')}
          </button>
        )}
      </div>
      <div className="wizard-progress">
        <progress max={stepCount} value={step} aria-label={t('app.wizard.stepOf', { step, total: stepCount })} />
        <span className="muted">{t('app.wizard.stepOf', { step, total: stepCount })}</span>
      </div>

      {step === 1 && <AboutStep state={state} dispatch={dispatch} />}
      {step === 2 && <LocationStep state={state} dispatch={dispatch} />}
      {step === 3 && <PhotosStep state={state} dispatch={dispatch} />}
      {step === promptsStep && <PromptsStep state={state} dispatch={dispatch} />}
      {step === 5 && <ReviewStep state={state} dispatch={dispatch} progress={uploading ? progress : null} />}

      <ErrorLine message={state.error} />
      {!state.cropping && (
        <div className="actions wizard-nav">
          {step > 1 && (
            <button
              type="button"
              className="button secondary"
              disabled={uploading}
              onClick={() => dispatch({ type: 'back' })}
            >
              {t('app.common.back')}
            </button>
          )}
          {step < stepCount ? (
            <button type="button" className="button" disabled={!photosRestored} onClick={next}>
              {t('app.wizard.next')}
            </button>
          ) : (
            <button type="button" className="button" disabled={uploading || !photosRestored} onClick={create}>
              {uploading ? t('app.wizard.uploading') : t('app.wizard.create')}
            </button>
          )}
        </div>
      )}
      <ConfirmSheet
        open={cancelling}
        title={t('app.wizard.cancelTitle')}
        text={t('app.wizard.cancelText')}
        confirmLabel={t('app.wizard.cancelConfirm')}
        busy={leaving}
        onConfirm={cancel}
        onClose={() => setCancelling(false)}
      />
    </section>
  );
}
