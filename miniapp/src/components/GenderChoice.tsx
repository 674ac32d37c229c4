import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { searchGenders } from '@contract/deckRules.ts';
import type { GenderFilter } from '../lib/filters.ts';
import { platform } from '../platform/index.ts';

/** The deck's gender filter as one segmented row: the menu's filters and the empty deck show the same one. */
export function GenderChoice({ value, onChange }: { value: GenderFilter; onChange: (gender: GenderFilter) => void }) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="field-group">
      <span id={`${id}-label`} className="group-label">
        {t('app.menu.gender')}
      </span>
      <div className="segmented wide" role="group" aria-labelledby={`${id}-label`}>
        {searchGenders.map((gender) => (
          <button
            key={gender}
            type="button"
            aria-pressed={value === gender}
            onClick={() => {
              platform().haptic('selection');
              onChange(gender);
            }}
          >
            {t(`app.menu.genders.${gender}`)}
          </button>
        ))}
      </div>
    </div>
  );
}
