import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { DeckFilters } from '../../api/queries/search.ts';
import { defaultAgeRange, genders } from '../../lib/constants.ts';
import { platform } from '../../platform/index.ts';

/**
 * Nobody left to show: say so and offer the ways on at once (the whole age range, another gender, a
 * fresh look later), rather than buttons that can do nothing.
 */
export function EmptyDeck({ filters, onChange, onRefresh }: { filters: DeckFilters; onChange: (change: Partial<DeckFilters>) => void; onRefresh: () => void }) {
  const { t } = useTranslation();
  const [low, high] = filters.ageRange;
  const narrowed = low > defaultAgeRange[0] || high < defaultAgeRange[1];
  return (
    <div className="state state-empty empty-deck">
      <p className="state-title">{t('app.errors.noMoreProfiles')}</p>
      <p className="muted">{t('app.search.emptyText')}</p>
      {narrowed && (
        <button type="button" className="button block" onClick={() => onChange({ ageRange: [...defaultAgeRange] })}>
          {t('app.search.widenAge')}
        </button>
      )}
      <div className="field-group">
        <span id="empty-gender-label" className="group-label">
          {t('app.search.showGender')}
        </span>
        <div className="segmented wide" role="group" aria-labelledby="empty-gender-label">
          {genders.map((g) => (
            <button
              key={g}
              type="button"
              aria-pressed={filters.gender === g}
              onClick={() => {
                platform().haptic('selection');
                onChange({ gender: g });
              }}
            >
              {t(`app.menu.genders.${g}`)}
            </button>
          ))}
        </div>
      </div>
      <div className="empty-deck-row">
        <button type="button" className="button secondary" onClick={onRefresh}>
          {t('app.search.refresh')}
        </button>
        <Link className="button secondary" to="/Menu">
          {t('app.search.changeFilters')}
        </Link>
      </div>
    </div>
  );
}
