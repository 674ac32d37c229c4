import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { maxAge, maxBioLength, maxNameLength, maxPhotos, minAge } from '../../../../server/contract/profiles.ts';
import { useCityCheck, useCreateProfile } from '../../api/queries/profiles.ts';
import { ErrorLine } from '../../components/States.tsx';
import { errorText } from '../../lib/errorText.ts';
import { locateErrorText, useLocate } from '../../lib/locate.ts';
import { useSession } from '../../session/SessionProvider.tsx';
import { AddPhotoButton } from './AddPhotoButton.tsx';
import { PhotoCropper } from './PhotoCropper.tsx';
import './Profile.css';

type Gender = 'Male' | 'Female';
const steps = 4;

/**
 * `/CreateProfile` (spec sections 2, 5, 9): 1 name, age, gender; 2 location (automatic or by city name);
 * 3 photos cropped in the browser; 4 review and Create, with upload progress. Each step checks its own
 * fields before Next; Back from step 2 on.
 */
export default function CreateProfileScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { refresh } = useSession();
  const [step, setStep] = useState(1);
  const [name, setName] = useState('');
  const [age, setAge] = useState('');
  const [gender, setGender] = useState<Gender | null>(null);
  const [city, setCity] = useState('');
  const [cityInput, setCityInput] = useState('');
  const [coords, setCoords] = useState<[number, number] | null>(null);
  const [manual, setManual] = useState(false);
  const locateMutation = useLocate();
  const cityCheck = useCityCheck();
  const createProfile = useCreateProfile();
  const locating = locateMutation.isPending;
  const [bio, setBio] = useState('');
  const [photos, setPhotos] = useState<{ blob: Blob; url: string }[]>([]);
  const [cropping, setCropping] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  // Previews live as object URLs: let them go when the wizard closes.
  const previews = useRef(photos);
  useEffect(() => {
    previews.current = photos;
  }, [photos]);
  useEffect(() => () => previews.current.forEach((p) => URL.revokeObjectURL(p.url)), []);

  function validate(): string | null {
    if (step === 1) {
      if (!name.trim() || !age || !gender) return t('app.wizard.required');
      const years = Number(age);
      if (!Number.isInteger(years) || years < minAge) return t('app.wizard.minAge');
      if (years > maxAge) return t('app.wizard.maxAge');
    }
    if (step === 2 && !city) return t('app.wizard.cityRequired');
    if (step === 3 && photos.length === 0) return t('app.wizard.photoRequired');
    return null;
  }

  function next() {
    const problem = validate();
    setError(problem);
    if (!problem) setStep((s) => Math.min(steps, s + 1));
  }

  function locate() {
    setError(null);
    locateMutation.mutate(undefined, {
      onSuccess: (here) => {
        setCity(here.city);
        setCoords(here.coords);
        // Spec section 9: a city found automatically moves straight on to the photos.
        setStep(3);
      },
      onError: (failure) => {
        // Denied or failed: the spec's message, and the manual entry instead.
        setError(locateErrorText(t, failure));
        setManual(true);
      },
    });
  }

  async function checkCity() {
    setError(null);
    // Spec section 5: an empty manual entry says the city is required (not a silently disabled button).
    if (!cityInput.trim()) {
      setError(t('app.wizard.cityMissing'));
      return;
    }
    try {
      const found = await cityCheck.mutateAsync(cityInput);
      setCity(found.city);
      setCoords(found.coords);
    } catch (failure) {
      setError(errorText(t, failure, 'app.errors.cityFailed', 'app.errors.cityFetch'));
    }
  }

  async function create() {
    if (!gender) return;
    setError(null);
    setProgress(0);
    try {
      await createProfile.mutateAsync({
        profile: { name: name.trim(), age: Number(age), gender, city, bio, latitude: coords?.[0] ?? null, longitude: coords?.[1] ?? null, photos: photos.map((p) => p.blob) },
        onProgress: setProgress,
      });
      await refresh(() => void navigate('/training', { replace: true }));
    } catch (failure) {
      setProgress(null);
      setError(errorText(t, failure, 'app.errors.submitProfile', 'app.errors.createProfile'));
    }
  }

  return (
    <section className="wizard" aria-labelledby="wizard-title">
      <h1 id="wizard-title">{t('app.wizard.title')}</h1>
      <div className="wizard-progress">
        <progress max={steps} value={step} aria-label={t('app.wizard.stepOf', { step, total: steps })} />
        <span className="muted">{t('app.wizard.stepOf', { step, total: steps })}</span>
      </div>

      {step === 1 && (
        <div className="wizard-step">
          <h2>{t('app.wizard.aboutTitle')}</h2>
          <label className="field">
            <span>{t('app.wizard.name')}</span>
            <input value={name} maxLength={maxNameLength} onChange={(e) => setName(e.target.value)} autoComplete="given-name" />
          </label>
          <label className="field">
            <span>{t('app.wizard.age')}</span>
            <input value={age} inputMode="numeric" type="number" min={minAge} max={maxAge} onChange={(e) => setAge(e.target.value)} />
          </label>
          <fieldset className="segmented wide" aria-label={t('app.wizard.gender')}>
            <legend className="visually-hidden">{t('app.wizard.gender')}</legend>
            {(['Male', 'Female'] as const).map((g) => (
              <button key={g} type="button" aria-pressed={gender === g} onClick={() => setGender(g)}>
                {t(`app.wizard.genders.${g}`)}
              </button>
            ))}
          </fieldset>
        </div>
      )}

      {step === 2 && (
        <div className="wizard-step">
          <h2>{t('app.wizard.locationTitle')}</h2>
          <p className="muted">{t('app.wizard.locationText')}</p>
          {city && (
            <p className="wizard-city" role="status">
              {t('app.wizard.cityFound', { city })}
            </p>
          )}
          <button type="button" className="button block" disabled={locating} onClick={locate}>
            {locating ? t('app.common.wait') : t('app.wizard.useLocation')}
          </button>
          {!manual && (
            <button type="button" className="button secondary block" onClick={() => setManual(true)}>
              {t('app.wizard.enterCity')}
            </button>
          )}
          {manual && (
            <form
              className="wizard-city-form"
              onSubmit={(e) => {
                e.preventDefault();
                void checkCity();
              }}
            >
              <label className="field">
                <span>{t('app.wizard.city')}</span>
                <input value={cityInput} onChange={(e) => setCityInput(e.target.value)} autoComplete="address-level2" />
              </label>
              <button type="submit" className="button secondary block">
                {t('app.wizard.checkCity')}
              </button>
            </form>
          )}
        </div>
      )}

      {step === 3 && (
        <div className="wizard-step">
          <h2>{t('app.wizard.photosTitle')}</h2>
          {cropping ? (
            <PhotoCropper
              url={cropping}
              onCancel={() => {
                URL.revokeObjectURL(cropping);
                setCropping(null);
              }}
              onDone={(blob) => {
                URL.revokeObjectURL(cropping);
                setCropping(null);
                setPhotos((list) => [...list, { blob, url: URL.createObjectURL(blob) }]);
              }}
            />
          ) : (
            <>
              <p className="muted">{t('app.wizard.photosText', { max: maxPhotos })}</p>
              <ul className="photo-previews">
                {photos.map((p, i) => (
                  <li key={p.url}>
                    <img src={p.url} alt={t('app.wizard.photoN', { n: i + 1 })} width={96} height={128} />
                    <button type="button" className="photo-remove" onClick={() => {
                        URL.revokeObjectURL(p.url);
                        setPhotos((list) => list.filter((x) => x !== p));
                      }} aria-label={t('app.wizard.removePhoto', { n: i + 1 })}>
                      ×
                    </button>
                  </li>
                ))}
              </ul>
              {photos.length < maxPhotos && <AddPhotoButton onPicked={setCropping} onError={setError} />}
            </>
          )}
        </div>
      )}

      {step === 4 && (
        <div className="wizard-step">
          <h2>{t('app.wizard.reviewTitle')}</h2>
          <ul className="photo-previews">
            {photos.map((p, i) => (
              <li key={p.url}>
                <img src={p.url} alt={t('app.wizard.photoN', { n: i + 1 })} width={96} height={128} />
              </li>
            ))}
          </ul>
          <p className="wizard-summary">
            {name.trim()}, {age} · {gender ? t(`app.wizard.genders.${gender}`) : ''} · {city}
          </p>
          <label className="field">
            <span>{t('app.wizard.bio')}</span>
            <textarea rows={4} maxLength={maxBioLength} value={bio} onChange={(e) => setBio(e.target.value)} />
          </label>
          {progress !== null && <progress className="upload-progress" max={1} value={progress} aria-label={t('app.wizard.uploading')} />}
        </div>
      )}

      <ErrorLine message={error} />
      {!cropping && (
        <div className="actions wizard-nav">
          {step > 1 && (
            <button type="button" className="button secondary" disabled={progress !== null} onClick={() => setStep((s) => s - 1)}>
              {t('app.common.back')}
            </button>
          )}
          {step < steps ? (
            <button type="button" className="button" onClick={next}>
              {t('app.wizard.next')}
            </button>
          ) : (
            <button type="button" className="button" disabled={progress !== null} onClick={() => void create()}>
              {progress !== null ? t('app.wizard.uploading') : t('app.wizard.create')}
            </button>
          )}
        </div>
      )}
    </section>
  );
}
