import type { Dispatch } from 'react';
import { useTranslation } from 'react-i18next';
import { maxBioLength } from '@contract/profiles.ts';
import type { WizardAction, WizardState } from './wizardState.ts';

/** Step 4: the photos and details once more, the bio, and the upload's progress after Create. */
export function ReviewStep({
  state,
  dispatch,
  progress,
}: {
  state: WizardState;
  dispatch: Dispatch<WizardAction>;
  progress: number | null;
}) {
  const { t } = useTranslation();
  return (
    <div className="wizard-step">
      <h2>{t('app.wizard.reviewTitle')}</h2>
      <ul className="photo-previews">
        {state.photos.map((p, i) => (
          <li key={p.url}>
            <img src={p.url} alt={t('app.wizard.photoN', { n: i + 1 })} width={96} height={128} />
          </li>
        ))}
      </ul>
      <p className="wizard-summary">
        {state.name.trim()}, {state.age} · {state.gender ? t(`app.wizard.genders.${state.gender}`) : ''} · {state.city}
      </p>
      <label className="field">
        <span>{t('app.wizard.bio')}</span>
        <textarea
          rows={4}
          maxLength={maxBioLength}
          value={state.bio}
          onChange={(e) => dispatch({ type: 'edit', fields: { bio: e.target.value } })}
        />
      </label>
      {progress !== null && (
        <progress className="upload-progress" max={1} value={progress} aria-label={t('app.wizard.uploading')} />
      )}
    </div>
  );
}
