import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { ProfileSavedResponse } from '@contract/profileSaved.ts';
import type { OwnProfileResponse } from '@contract/profiles.ts';
import { genders, maxAge, maxBioLength, maxNameLength, minAge } from '@contract/profiles.ts';
import { useCityCheck, useEditProfile, useOwnProfile } from '../../api/queries/profiles.ts';
import { PromptEditor, promptsAnswered, type PromptDraft } from '../../components/PromptEditor.tsx';
import { ErrorLine, Loading, QueryView } from '../../components/States.tsx';
import { errorText } from '../../lib/errorText.ts';
import { locateErrorText, useLocate } from '../../lib/locate.ts';
import { useSession } from '../../session/SessionProvider.tsx';
import './Profile.css';

/**
 * `/edit_profile`: name, age, gender, city, bio and prompts; Save goes back to /profile. Moving is part of editing:
 * "Use my location" finds the city where the person is, and a city typed by hand is looked up on Save, so
 * the position search measures from always matches the city shown.
 */
export default function EditProfileScreen() {
  const profile = useOwnProfile({ fresh: true });
  // The form copies the profile once: from the copy read now, not a cached one that may be out of date.
  if (!profile.isFetchedAfterMount) return <Loading />;
  return (
    <QueryView query={profile} failedKey="app.errors.fetchProfileData">
      {(data) => <EditForm profile={data} />}
    </QueryView>
  );
}

function EditForm({ profile }: { profile: OwnProfileResponse }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { adopt } = useSession();
  const [name, setName] = useState(profile.name);
  const [age, setAge] = useState(String(profile.age));
  const [gender, setGender] = useState(profile.gender);
  const [city, setCity] = useState(profile.city);
  /** The geocoder's place of the city shown: kept while the text is, dropped when it is typed over. */
  const [placeId, setPlaceId] = useState(profile.place_id);
  const [bio, setBio] = useState(profile.bio);
  const [prompts, setPrompts] = useState<PromptDraft[]>(() =>
    profile.prompts.map((p) => ({ prompt_id: p.prompt_id, answer: p.answer })),
  );
  /** A new position, once found; null keeps the stored one. */
  const [coords, setCoords] = useState<[number, number] | null>(null);
  const locate = useLocate();
  const cityCheck = useCityCheck();
  const edit = useEditProfile();
  // Saved: still busy while the app goes back to /profile.
  const busy = cityCheck.isPending || edit.isPending || edit.isSuccess;
  /** The form's one message line: a check of its own, the position, the city lookup or the save. */
  const [error, setError] = useState<string | null>(null);

  function locateHere() {
    setError(null);
    locate.mutate(undefined, {
      onSuccess: (here) => {
        setCity(here.city);
        setPlaceId(here.placeId);
        setCoords(here.coords);
      },
      onError: (failure) => setError(locateErrorText(t, failure)),
    });
  }

  async function save() {
    const years = Number(age);
    if (!name.trim() || !city.trim() || !age) return setError(t('app.wizard.required'));
    if (!Number.isInteger(years) || years < minAge) return setError(t('app.wizard.minAge'));
    if (years > maxAge) return setError(t('app.wizard.maxAge'));
    if (!promptsAnswered(prompts)) return setError(t('app.prompts.answerRequired'));
    setError(null);
    let place: { city: string; place_id: number | null; coords: [number, number] | null } = {
      city: city.trim(),
      place_id: placeId,
      coords,
    };
    if (!coords && place.city !== profile.city) {
      try {
        place = await cityCheck.mutateAsync(place.city);
      } catch (failure) {
        return setError(errorText(t, failure, 'app.errors.cityFailed', 'app.errors.cityFetch'));
      }
    }
    const position = place.coords ? { latitude: place.coords[0], longitude: place.coords[1] } : {};
    let saved: ProfileSavedResponse;
    try {
      const chosen = place.place_id !== null ? { place_id: place.place_id } : {};
      saved = await edit.mutateAsync({
        name: name.trim(),
        age: years,
        gender,
        city: place.city,
        ...chosen,
        bio,
        prompts,
        ...position,
      });
    } catch (failure) {
      return setError(errorText(t, failure, 'app.errors.updateProfile'));
    }
    // The menu's name and age come from the session: the answer carries it as it is now.
    adopt(saved.current_user, () => void navigate('/profile', { replace: true }));
  }

  return (
    <form
      className="wizard"
      // The app's own messages (spec section 8), not the browser's bubbles.
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h1>{t('app.profile.editTitle')}</h1>
      <label className="field">
        <span>{t('app.wizard.name')}</span>
        <input value={name} maxLength={maxNameLength} onChange={(e) => setName(e.target.value)} />
      </label>
      <label className="field">
        <span>{t('app.wizard.age')}</span>
        <input
          value={age}
          type="number"
          inputMode="numeric"
          min={minAge}
          max={maxAge}
          onChange={(e) => setAge(e.target.value)}
        />
      </label>
      <fieldset className="segmented wide" aria-label={t('app.wizard.gender')}>
        <legend className="visually-hidden">{t('app.wizard.gender')}</legend>
        {genders.map((g) => (
          <button key={g} type="button" aria-pressed={gender === g} onClick={() => setGender(g)}>
            {t(`app.profile.genders.${g}`)}
          </button>
        ))}
      </fieldset>
      {/* Other matches only those who look for anyone (search's reciprocal rule): said where it is chosen. */}
      {gender === 'Other' && (
        <p className="gender-note" role="note">
          {t('app.profile.otherGenderNote')}
        </p>
      )}
      <label className="field">
        <span>{t('app.wizard.city')}</span>
        <input
          value={city}
          autoComplete="address-level2"
          onChange={(e) => {
            setCity(e.target.value);
            setPlaceId(null);
            setCoords(null);
          }}
        />
      </label>
      <button type="button" className="button secondary block" disabled={locate.isPending} onClick={locateHere}>
        {locate.isPending ? t('app.common.wait') : t('app.wizard.useLocation')}
      </button>
      <label className="field">
        <span>{t('app.wizard.bio')}</span>
        <textarea rows={4} maxLength={maxBioLength} value={bio} onChange={(e) => setBio(e.target.value)} />
      </label>
      <h2 className="prompts-heading">{t('app.prompts.title')}</h2>
      <PromptEditor value={prompts} onChange={setPrompts} />
      <ErrorLine message={error} />
      <div className="actions wizard-nav">
        <button type="button" className="button secondary" onClick={() => void navigate('/profile')}>
          {t('app.matches.cancel')}
        </button>
        <button type="submit" className="button" disabled={busy}>
          {busy ? t('app.common.wait') : t('app.profile.save')}
        </button>
      </div>
    </form>
  );
}
