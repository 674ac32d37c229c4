import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { PersonListItem } from '@contract/discovery.ts';
import { useChatWithLiker, useLikers } from '../../api/queries/matches.ts';
import { EmptyState, ErrorLine } from '../../components/States.tsx';
import { errorText } from '../../lib/errorText.ts';
import { LikerNotes } from './LikerNotes.tsx';
import { PeopleScreen } from './PeopleScreen.tsx';
import { PremiumInvite } from './PremiumInvite.tsx';
import { useLikesSeen } from './useLikesSeen.ts';

/**
 * `/WhoLike`: people who liked the user. Premium sees them, opens their profiles and can start a chat at
 * once (spec section 2): liking someone who already liked you is a match, and chats are between matches.
 * Free users get the blurred photos the server makes (no names) and an invitation to premium. Likers who
 * wrote with their like (issue 38) come first, whole on every plan, with what they wrote.
 */
export default function LikersScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const likers = useLikers();
  useLikesSeen();
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
  const chatError = (
    <ErrorLine
      message={chat.error ? errorText(t, chat.error, 'app.errors.startChatFailed', 'app.errors.startChatError') : null}
    />
  );

  return (
    <PeopleScreen
      titleId="likes-title"
      title={t('app.matches.likesTitle')}
      query={likers}
      failedKey="app.errors.likersFailed"
      exceptionKey="app.errors.likersError"
      empty={
        <>
          <EmptyState title={t('app.errors.noLikes')}>
            <p className="muted">{t('app.matches.likesEmptyHint')}</p>
          </EmptyState>
          {chatError}
        </>
      }
      linkTo={(p) => (p.blurred || p.id === null ? '/subscription' : `/UsersProfileLiker/${p.id}`)}
      above={(list) => (
        <>
          <LikerNotes people={list.filter((p) => p.message !== undefined)} action={chatButton} />
          {list.some((p) => p.blurred) && <PremiumInvite count={list.filter((p) => p.blurred).length} />}
          {chatError}
        </>
      )}
      inGrid={(p) => p.message === undefined}
      below={chatButton}
    />
  );
}
