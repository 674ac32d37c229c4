import { useEffect, useReducer, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useCreateProfile } from '../../../api/queries/profiles.ts';
import { ErrorLine } from '../../../components/States.tsx';
import { useClosingConfirmation } from '../../../components/useClosingConfirmation.ts';
import { errorText } from '../../../lib/errorText.ts';
import { useSession } from '../../../session/SessionProvider.tsx';
import { AboutStep } from './AboutStep.tsx';
import { LocationStep } from './LocationStep.tsx';
import { PhotosStep } from './PhotosStep.tsx';
import { ReviewStep } from './ReviewStep.tsx';
import { initialWizard, stepCount, stepProblem, wizardReducer } from './wizardState.ts';
import '../Profile.css';

/**
 * `/CreateProfile` (spec sections 2, 5, 9): 1 name, age, gender; 2 location (automatic or by city name);
 * 3 photos cropped in the browser; 4 review and Create, with upload progress. Each step checks its own
 * fields before Next; Back from step 2 on. The steps share one state (wizardState.ts).
 */
export default function CreateProfileScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { adopt } = useSession();
  const [state, dispatch] = useReducer(wizardReducer, initialWizard);
  const createProfile = useCreateProfile();
  const [progress, setProgress] = useState(0);
  // Uploading, or created and on the way to /training.
  const uploading = createProfile.isPending || createProfile.isSuccess;
  const { step } = state;
  // Anything entered and not yet created: Telegram asks before closing.
  useClosingConfirmation(!uploading && (state.name !== '' || state.age !== '' || state.bio !== '' || state.cityInput !== '' || state.photos.length > 0));

  // Previews live as object URLs: let them go when the wizard closes.
  const previews = useRef(state.photos);
  useEffect(() => {
    previews.current = state.photos;
  }, [state.photos]);
  useEffect(() => () => previews.current.forEach((p) => URL.revokeObjectURL(p.url)), []);

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
          latitude: state.coords?.[0] ?? null,
          longitude: state.coords?.[1] ?? null,
          photos: state.photos.map((p) => p.blob),
        },
        onProgress: setProgress,
      },
      {
        onSuccess: (created) => adopt(created.current_user, () => void navigate('/training', { replace: true })),
        onError: (failure) => dispatch({ type: 'failed', message: errorText(t, failure, 'app.errors.submitProfile', 'app.errors.createProfile') }),
      },
    );
  }

  return (
    <section className="wizard" aria-labelledby="wizard-title">
      <h1 id="wizard-title">{t('app.wizard.title')}</h1>
      <div className="wizard-progress">
        <progress max={stepCount} value={step} aria-label={t('app.wizard.stepOf', { step, total: stepCount })} />
        <span className="muted">{t('app.wizard.stepOf', { step, total: stepCount })}</span>
      </div>

      {step === 1 && <AboutStep state={state} dispatch={dispatch} />}
      {step === 2 && <LocationStep state={state} dispatch={dispatch} />}
      {step === 3 && <PhotosStep state={state} dispatch={dispatch} />}
      {step === 4 && <ReviewStep state={state} dispatch={dispatch} progress={uploading ? progress : null} />}

      <ErrorLine message={state.error} />
      {!state.cropping && (
        <div className="actions wizard-nav">
          {step > 1 && (
            <button type="button" className="button secondary" disabled={uploading} onClick={() => dispatch({ type: 'back' })}>
              {t('app.common.back')}
            </button>
          )}
          {step < stepCount ? (
            <button type="button" className="button" onClick={next}>
              {t('app.wizard.next')}
            </button>
          ) : (
            <button type="button" className="button" disabled={uploading} onClick={create}>
              {uploading ? t('app.wizard.uploading') : t('app.wizard.create')}
            </button>
          )}
        </div>
      )}
    </section>
  );
}
