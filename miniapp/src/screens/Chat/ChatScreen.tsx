import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { SafetyActions } from '../../components/SafetyActions.tsx';
import { ErrorState, Loading } from '../../components/States.tsx';
import { errorText } from '../../lib/errorText.ts';
import { useSession } from '../../session/SessionProvider.tsx';
import { Avatar } from './Avatar.tsx';
import { Composer } from './Composer.tsx';
import { MessageList } from './MessageList.tsx';
import { useConversation } from './useConversation.ts';
import './Chat.css';

/** `/chat/{conversationId}` (spec sections 2, 9): the conversation, live in both directions. */
export default function ChatScreen() {
  const { t } = useTranslation();
  const { session } = useSession();
  const navigate = useNavigate();
  const conversationId = Number(useParams().id);
  const myProfileId = session.status === 'signedIn' ? (session.profile?.id ?? null) : null;
  const conversation = useConversation(Number.isInteger(conversationId) && conversationId > 0 ? conversationId : 0, myProfileId);
  const [sentCount, setSentCount] = useState(0);
  const { participant, loadOlder } = conversation;
  const needOlder = useCallback(() => void loadOlder(), [loadOlder]);

  return (
    <section className="chat-screen" aria-label={participant ? t('app.chat.conversationWith', { name: participant.name }) : t('app.chat.title')}>
      <header className="chat-header">
        <Link className="chat-back" to="/ChatList" aria-label={t('app.chat.backToChats')}>
          <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
            <path fill="currentColor" d="M15.4 5.4 14 4l-8 8 8 8 1.4-1.4L8.8 12z" />
          </svg>
        </Link>
        {participant && (
          <Link className="chat-peer" to={`/UsersProfile/${participant.profile_id}`} aria-label={t('app.chat.viewProfile', { name: participant.name })}>
            <Avatar name={participant.name} photo={participant.photo} size={36} />
            <span className="chat-peer-name">{participant.name}</span>
          </Link>
        )}
        {participant && <SafetyActions profileId={participant.profile_id} name={participant.name} onDone={() => void navigate('/ChatList', { replace: true })} />}
      </header>
      {conversation.status === 'loading' && <Loading />}
      {conversation.status === 'error' && (
        <ErrorState message={errorText(t, conversation.error, 'app.chat.loadFailed')} onRetry={() => void conversation.retry()} />
      )}
      {conversation.status === 'ready' && participant && (
        <>
          <MessageList
            messages={conversation.messages}
            myProfileId={myProfileId}
            participantName={participant.name}
            hasOlder={conversation.hasOlder}
            loadingOlder={conversation.loadingOlder}
            onNeedOlder={needOlder}
            scrollToEndSignal={sentCount}
          />
          <Composer
            onSend={async (content) => {
              await conversation.send(content);
              setSentCount((n) => n + 1);
            }}
          />
        </>
      )}
    </section>
  );
}
