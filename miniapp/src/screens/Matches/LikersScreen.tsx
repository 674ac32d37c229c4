import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { PersonListItem } from '../../../../server/contract/discovery.ts';
import { chatQueries } from '../../api/queries/chat.ts';
import { matchesQueries } from '../../api/queries/matches.ts';
import { useResource } from '../../api/useResource.ts';
import { EmptyState, ErrorLine, ErrorState, Loading } from '../../components/States.tsx';
import { errorText } from '../../lib/errorText.ts';
import { PersonGrid } from './PersonGrid.tsx';
import './Matches.css';

/**
 * `/WhoLike`: people who liked the user. Premium sees them, opens their profiles and can start a chat at
 * once (spec section 2): liking someone who already liked you is a match, and chats are between matches.
 * Free users get the blurred photos the server makes (no names) and an invitation to premium.
 */
export default function LikersScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [likers, reload] = useResource(matchesQueries.likers);
  const [starting, setStarting] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const blurred = likers.state === 'ready' && likers.data.some((p) => p.blurred);

  async function startChat(person: PersonListItem) {
    if (person.id === null || starting !== null) return;
    setStarting(person.id);
    setError(null);
    try {
      const liked = await matchesQueries.like(person.id);
      // No match (they took their like back, or were blocked meanwhile): the list is out of date.
      if (!liked.match) {
        setError(t('app.errors.startChatFailed'));
        setStarting(null);
        reload();
        return;
      }
      const conversationId = await chatQueries.start(person.id);
      void navigate(`/chat/${conversationId}`);
    } catch (failure) {
      setError(errorText(t, failure, 'app.errors.startChatFailed', 'app.errors.startChatError'));
      setStarting(null);
      reload();
    }
  }

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
      <ErrorLine message={error} />
      {likers.state === 'ready' && likers.data.length > 0 && (
        <PersonGrid
          people={likers.data}
          label={t('app.matches.likesTitle')}
          linkTo={(p) => (p.blurred || p.id === null ? '/subscription' : `/UsersProfileLiker/${p.id}`)}
          action={(p) =>
            p.blurred || p.id === null ? null : (
              <button
                type="button"
                className="button small block person-card-action"
                disabled={starting !== null}
                aria-label={t('app.matches.startChatWith', { name: p.name ?? '' })}
                onClick={() => void startChat(p)}
              >
                {t('app.matches.startChat')}
              </button>
            )
          }
        />
      )}
    </section>
  );
}
