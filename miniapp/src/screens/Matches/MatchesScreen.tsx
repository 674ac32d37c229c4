import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useMatches } from '../../api/queries/matches.ts';
import { EmptyState, QueryView } from '../../components/States.tsx';
import { PersonGrid } from './PersonGrid.tsx';
import './Matches.css';

/** `/matches` (spec sections 2, 8): everyone the user matched with. */
export default function MatchesScreen() {
  const { t } = useTranslation();
  const matches = useMatches();
  return (
    <section aria-labelledby="matches-title">
      <h1 id="matches-title">{t('app.matches.title')}</h1>
      <QueryView
        query={matches}
        failedKey="app.errors.matchesFailed"
        exceptionKey="app.errors.matchesError"
        isEmpty={(list) => list.length === 0}
        empty={
          <EmptyState title={t('app.errors.noMatches')}>
            <p className="muted">{t('app.matches.emptyHint')}</p>
            <Link className="button" to="/search">
              {t('app.matches.toSearch')}
            </Link>
          </EmptyState>
        }
      >
        {(list) => <PersonGrid people={list} label={t('app.matches.title')} linkTo={(p) => `/UsersProfile/${p.id ?? 0}`} />}
      </QueryView>
    </section>
  );
}
