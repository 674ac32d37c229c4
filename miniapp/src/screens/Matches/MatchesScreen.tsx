import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { matchesQueries } from '../../api/queries/matches.ts';
import { useResource } from '../../api/useResource.ts';
import { EmptyState, ErrorState, Loading } from '../../components/States.tsx';
import { errorText } from '../../lib/errorText.ts';
import { PersonGrid } from './PersonGrid.tsx';
import './Matches.css';

/** `/matches` (spec sections 2, 8): everyone the user matched with. */
export default function MatchesScreen() {
  const { t } = useTranslation();
  const [matches, reload] = useResource(matchesQueries.matches);
  return (
    <section aria-labelledby="matches-title">
      <h1 id="matches-title">{t('app.matches.title')}</h1>
      {matches.state === 'loading' && <Loading />}
      {matches.state === 'error' && <ErrorState message={errorText(t, matches.error, 'app.errors.matchesFailed', 'app.errors.matchesError')} onRetry={reload} />}
      {matches.state === 'ready' && matches.data.length === 0 && (
        <EmptyState title={t('app.errors.noMatches')}>
          <p className="muted">{t('app.matches.emptyHint')}</p>
          <Link className="button" to="/search">
            {t('app.matches.toSearch')}
          </Link>
        </EmptyState>
      )}
      {matches.state === 'ready' && matches.data.length > 0 && (
        <PersonGrid people={matches.data} label={t('app.matches.title')} linkTo={(p) => `/UsersProfile/${p.id ?? 0}`} />
      )}
    </section>
  );
}
