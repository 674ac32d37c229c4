import { useTranslation } from 'react-i18next';
import { changeDeckFilters } from '../../api/queries/deckSettings.ts';
import { AgeRangeSlider } from '../../components/AgeRangeSlider.tsx';
import { DistanceSlider } from '../../components/DistanceSlider.tsx';
import { GenderChoice } from '../../components/GenderChoice.tsx';
import { VerifiedOnlySwitch } from '../../components/VerifiedOnlySwitch.tsx';
import { useDeckFilters } from '../../lib/filters.ts';

/**
 * Who the deck shows: gender, age range, distance and whether only verified people (issue 40), kept in the browser (spec section 3, lib/filters.ts).
 * The gender is also saved on the server for someone with a profile (others' reciprocal rule reads it).
 */
export function FiltersSection({ hasProfile }: { hasProfile: boolean }) {
  const { t } = useTranslation();
  const filters = useDeckFilters();
  return (
    <section className="card" aria-labelledby="filters-title">
      <h2 id="filters-title">{t('app.menu.filters')}</h2>
      <GenderChoice value={filters.gender} onChange={(gender) => changeDeckFilters({ gender }, hasProfile)} />
      <AgeRangeSlider
        value={[filters.ageMin, filters.ageMax]}
        onChange={([ageMin, ageMax]) => changeDeckFilters({ ageMin, ageMax }, hasProfile)}
      />
      <DistanceSlider
        value={filters.maxDistance}
        onChange={(maxDistance) => changeDeckFilters({ maxDistance }, hasProfile)}
      />
      <VerifiedOnlySwitch
        value={filters.verifiedOnly === true}
        onChange={(on) => changeDeckFilters({ verifiedOnly: on || undefined }, hasProfile)}
      />
    </section>
  );
}
