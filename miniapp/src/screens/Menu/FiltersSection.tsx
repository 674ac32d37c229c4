import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { syncGender } from '../../api/queries/settings.ts';
import { AgeRangeSlider } from '../../components/AgeRangeSlider.tsx';
import { genders, type GenderFilter } from '../../lib/constants.ts';
import { storeAgeRange, storedAgeRange, storedGender, storeGender } from '../../lib/filters.ts';
import { platform } from '../../platform/index.ts';

/**
 * Who the deck shows: gender and age range, kept in the browser (spec section 3). The gender is also
 * saved on the server for someone with a profile (others' reciprocal rule reads it).
 */
export function FiltersSection({ hasProfile }: { hasProfile: boolean }) {
  const { t } = useTranslation();
  const [gender, setGender] = useState<GenderFilter>(storedGender);
  const [ageRange, setAgeRange] = useState<[number, number]>(storedAgeRange);
  return (
    <section className="card" aria-labelledby="filters-title">
      <h2 id="filters-title">{t('app.menu.filters')}</h2>
      <div className="field-group">
        <span id="gender-label" className="group-label">
          {t('app.menu.gender')}
        </span>
        <div className="segmented wide" role="group" aria-labelledby="gender-label">
          {genders.map((g) => (
            <button
              key={g}
              type="button"
              aria-pressed={gender === g}
              onClick={() => {
                setGender(g);
                storeGender(g);
                if (hasProfile) void syncGender(g);
                platform().haptic('selection');
              }}
            >
              {t(`app.menu.genders.${g}`)}
            </button>
          ))}
        </div>
      </div>
      <AgeRangeSlider
        value={ageRange}
        onChange={(range) => {
          setAgeRange(range);
          storeAgeRange(range);
        }}
      />
    </section>
  );
}
