import type { Dispatch } from 'react';
import { useTranslation } from 'react-i18next';
import { maxAge, maxNameLength, minAge } from '@contract/profiles.ts';
import type { WizardAction, WizardState } from './wizardState.ts';

/** Step 1: name, age, gender. */
export function AboutStep({ state, dispatch }: { state: WizardState; dispatch: Dispatch<WizardAction> }) {
  const { t } = useTranslation();
  return (
    <div className="wizard-step">
      <h2>{t('app.wizard.aboutTitle')}</h2>
      <label className="field">
        <span>{t('app.wizard.name')}</span>
        <input
          value={state.name}
          maxLength={maxNameLength}
          onChange={(e) => dispatch({ type: 'edit', fields: { name: e.target.value } })}
          autoComplete="given-name"
        />
      </label>
      <label className="field">
        <span>{t('app.wizard.age')}</span>
        <input
          value={state.age}
          inputMode="numeric"
          type="number"
          min={minAge}
          max={maxAge}
          onChange={(e) => dispatch({ type: 'edit', fields: { age: e.target.value } })}
        />
      </label>
      <fieldset className="segmented wide" aria-label={t('app.wizard.gender')}>
        <legend className="visually-hidden">{t('app.wizard.gender')}</legend>
        {(['Male', 'Female'] as const).map((g) => (
          <button
            key={g}
            type="button"
            aria-pressed={state.gender === g}
            onClick={() => dispatch({ type: 'edit', fields: { gender: g } })}
          >
            {t(`app.wizard.genders.${g}`)}
          </button>
        ))}
      </fieldset>
    </div>
  );
}
