import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { matchesQueries } from '../../api/queries/matches.ts';
import { useResource } from '../../api/useResource.ts';
import { EmptyState, ErrorState, Loading } from '../../components/States.tsx';
import { errorText } from '../../lib/errorText.ts';
import { PersonGrid } from './PersonGrid.tsx';
import './Matches.css';

/**
 * `/WhoLike`: people who liked the user. Premium sees them and opens their profiles; free users get the
 * blurred photos the server makes (no names) and an invitation to premium.
 */
export default function LikersScreen() {
  const { t } = useTranslation();
  const [likers, reload] = useResource(matchesQueries.likers);
  const blurred = likers.state === 'ready' && likers.data.some((p) => p.blurred);
  return (
    <section aria-labelledby="likes-title">
      <h1 id="likes-title">{t('app.matches.likesTitle')}</h1>
      {likers.state === 'loading' && <Loading />}
      {likers.state === 'error' && <ErrorState message={errorText(t, likers.error, 'app.errors.likersFailed', 'app.errors.likersError')} onRetry={reload} />}
      {likers.state === 'ready' && likers.data.length === 0 && (
        <EmptyState title={t('app.errors.noLikes')}>
          <p className="muted">{t('app.matches.likesEmptyHint')}</p>
        </EmptyState>
      )}
      {likers.state === 'ready' && blurred && (
        <div className="premium-invite card">
          <p className="state-title">{t('app.matches.blurredTitle', { count: likers.data.length })}</p>
          <p className="muted">{t('app.matches.blurredText')}</p>
          <Link className="button block" to="/subscription">
            {t('app.matches.seeWhoLiked')}
          </Link>
        </div>
      )}
      {likers.state === 'ready' && likers.data.length > 0 && (
        <PersonGrid
          people={likers.data}
          label={t('app.matches.likesTitle')}
          linkTo={(p) => (p.blurred || p.id === null ? '/subscription' : `/UsersProfileLiker/${p.id}`)}
        />
      )}
    </section>
  );
}
