import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { markLikesSeen, useBadges } from '../../api/queries/badges.ts';
import { queryKeys } from '../../api/queries/keys.ts';
import type { PersonListItem } from '@contract/discovery.ts';
import { useChatWithLiker, useLikers } from '../../api/queries/matches.ts';
import { EmptyState, ErrorLine, QueryView } from '../../components/States.tsx';
import { errorText } from '../../lib/errorText.ts';
import { LikerNotes } from './LikerNotes.tsx';
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
  const likers = useLikers();
  // Opened: nobody among them is new any more (the Likes badge). A like arriving while it is open comes
  // only as a count (the `badges` event): the list is read again, and the newcomer is seen here too.
  const client = useQueryClient();
  const arrived = useBadges().data?.new_likers ?? 0;
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current) {
      if (arrived === 0) return;
      void client.invalidateQueries({ queryKey: queryKeys.likers() });
    }
    opened.current = true;
    void markLikesSeen(client).catch(() => undefined);
  }, [client, arrived]);
  const chat = useChatWithLiker();
  // On the way to the chat: every button stays disabled until it opens.
  const starting = chat.isPending || chat.isSuccess;
  /** Liking back is the match, and the chat opens (for anyone shown whole: premium, or a liker who wrote). */
  const chatButton = (p: PersonListItem) => {
    const id = p.id;
    return p.blurred || id === null ? null : (
      <button
        type="button"
        className="button small block person-card-action"
        disabled={starting}
        aria-label={t('app.matches.startChatWith', { name: p.name ?? '' })}
        onClick={() => chat.mutate(id, { onSuccess: (conversationId) => void navigate(`/chat/${conversationId}`) })}
      >
        {t('app.matches.startChat')}
      </button>
    );
  };
  const chatError = <ErrorLine message={chat.error ? errorText(t, chat.error, 'app.errors.startChatFailed', 'app.errors.startChatError') : null} />;

  return (
    <section aria-labelledby="likes-title">
      <h1 id="likes-title">{t('app.matches.likesTitle')}</h1>
      <QueryView
        query={likers}
        failedKey="app.errors.likersFailed"
        exceptionKey="app.errors.likersError"
        isEmpty={(list) => list.length === 0}
        empty={
          <>
            <EmptyState title={t('app.errors.noLikes')}>
              <p className="muted">{t('app.matches.likesEmptyHint')}</p>
            </EmptyState>
            {chatError}
          </>
        }
      >
        {(list) => (
          <>
            <LikerNotes people={list.filter((p) => p.message !== undefined)} action={chatButton} />
            {list.some((p) => p.blurred) && (
              <div className="premium-invite card">
                <p className="state-title">{t('app.matches.blurredTitle', { count: list.filter((p) => p.blurred).length })}</p>
                <p className="muted">{t('app.matches.blurredText')}</p>
                <Link className="button block" to="/subscription">
                  {t('app.matches.seeWhoLiked')}
                </Link>
              </div>
            )}
            {chatError}
            {list.some((p) => p.message === undefined) && (
              <PersonGrid
                people={list.filter((p) => p.message === undefined)}
                label={t('app.matches.likesTitle')}
                linkTo={(p) => (p.blurred || p.id === null ? '/subscription' : `/UsersProfileLiker/${p.id}`)}
                action={chatButton}
              />
            )}
          </>
        )}
      </QueryView>
    </section>
  );
}
