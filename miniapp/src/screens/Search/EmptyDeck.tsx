import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { GenderChoice } from '../../components/GenderChoice.tsx';
import { VerifiedOnlySwitch } from '../../components/VerifiedOnlySwitch.tsx';
import { widerDistance } from '../../lib/filterStops.ts';
import { defaultFilters, type DeckFilters, type FilterChange } from '../../lib/filters.ts';

/**
 * Nobody left to show: say so and offer the ways on at once (a wider distance, the whole age range, another
 * gender, a fresh look later), rather than buttons that can do nothing.
 *
 * The distance offer shows whenever a limit is set: the server's "nobody left" does not say which filter
 * emptied the deck, and asking it again without the limit would spend a search (counted against the
 * caller's limit) on a guess. Someone who set a limit and sees nobody expects "look farther" first, and
 * each tap goes one step (about four times the area) until "any distance", so the deck is never emptied by
 * a limit the user cannot see.
 *
 * "Verified only" (issue 40) empties a deck far more often than any other filter (few people have verified
 * yet), so while it is on the deck says so first and offers everyone at once.
 */
export function EmptyDeck({
  filters,
  onChange,
  onRefresh,
}: {
  filters: DeckFilters;
  onChange: (change: FilterChange) => void;
  onRefresh: () => void;
}) {
  const { t } = useTranslation();
  const narrowedAge = filters.ageMin > defaultFilters.ageMin || filters.ageMax < defaultFilters.ageMax;
  const limit = filters.maxDistance;
  const wider = limit === undefined ? undefined : widerDistance(limit);
  const verifiedOnly = filters.verifiedOnly === true;
  return (
    <div className="state state-empty empty-deck">
      <p className="state-title">{t('app.errors.noMoreProfiles')}</p>
      {verifiedOnly && <p className="muted empty-verified">{t('verification.empty.text')}</p>}
      <p className="muted">
        {limit === undefined ? t('app.search.emptyText') : t('app.search.emptyWithin', { km: limit })}
      </p>
      {verifiedOnly && (
        <button type="button" className="button block" onClick={() => onChange({ verifiedOnly: undefined })}>
          {t('verification.empty.showAll')}
        </button>
      )}
      {limit !== undefined && (
        <button
          type="button"
          className={verifiedOnly ? 'button block secondary' : 'button block'}
          onClick={() => onChange({ maxDistance: wider })}
        >
          {wider === undefined ? t('app.search.anyDistance') : t('app.search.widenDistance', { km: wider })}
        </button>
      )}
      {narrowedAge && (
        <button
          type="button"
          className={limit === undefined && !verifiedOnly ? 'button block' : 'button block secondary'}
          onClick={() => onChange({ ageMin: defaultFilters.ageMin, ageMax: defaultFilters.ageMax })}
        >
          {t('app.search.widenAge')}
        </button>
      )}
      <GenderChoice value={filters.gender} onChange={(gender) => onChange({ gender })} />
      <VerifiedOnlySwitch value={verifiedOnly} onChange={(on) => onChange({ verifiedOnly: on || undefined })} />
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
