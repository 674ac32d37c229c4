import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useMatches } from '../../api/queries/matches.ts';
import { EmptyState } from '../../components/States.tsx';
import { PeopleScreen } from './PeopleScreen.tsx';

/** `/matches` (spec sections 2, 8): everyone the user matched with. */
export default function MatchesScreen() {
  const { t } = useTranslation();
  const matches = useMatches();
  return (
    <PeopleScreen
      titleId="matches-title"
      title={t('app.matches.title')}
      query={matches}
      failedKey="app.errors.matchesFailed"
      exceptionKey="app.errors.matchesError"
      empty={
        <EmptyState title={t('app.errors.noMatches')}>
          <p className="muted">{t('app.matches.emptyHint')}</p>
          <Link className="button" to="/search">
            {t('app.matches.toSearch')}
          </Link>
        </EmptyState>
      }
      linkTo={(p) => `/UsersProfile/${p.id ?? 0}`}
    />
  );
}
