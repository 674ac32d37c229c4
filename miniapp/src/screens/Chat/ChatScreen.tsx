import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../api/client.ts';
import { markMatchOpened } from '../../api/queries/badges.ts';
import { useConversation } from '../../api/queries/chat.ts';
import { SafetyActions } from '../../components/SafetyActions.tsx';
import { ShareTelegram } from '../../components/ShareTelegram.tsx';
import { QueryView } from '../../components/States.tsx';
import { useDeepLinkFallback } from '../../components/StartParamRedirect.tsx';
import { useSession } from '../../session/SessionProvider.tsx';
import { Avatar } from './Avatar.tsx';
import { Composer, type ComposerHandle } from './Composer.tsx';
import { MessageList } from './MessageList.tsx';
import { Openers } from './Openers.tsx';
import { useAcknowledgeShown } from './useAcknowledgeShown.ts';
import { useMarkArrivalsRead } from './useMarkArrivalsRead.ts';
import { usePartnerTyping } from './usePartnerTyping.ts';
import './Chat.css';

/** `/chat/{conversationId}` (spec sections 2, 9): the conversation, live in both directions. */
export default function ChatScreen() {
  const { t } = useTranslation();
  const { session } = useSession();
  const navigate = useNavigate();
  const id = Number(useParams().id);
  const conversationId = Number.isInteger(id) && id > 0 ? id : 0;
  const myProfileId = session.status === 'signedIn' ? (session.profile?.id ?? null) : null;
  // New messages from either side and the other person's read marks come into the cache (api/liveCache.ts).
  const { query, loadingOlder, loadOlder } = useConversation(conversationId);
  useDeepLinkFallback(query.error);
  useMarkArrivalsRead(conversationId, query.data?.messages, myProfileId);
  useAcknowledgeShown(conversationId, myProfileId);
  const [sentCount, setSentCount] = useState(0);
  const participant = query.data?.participant ?? null;
  // Their chat opened: the match is no longer new (the Matches badge).
  const partnerId = participant?.profile_id ?? null;
  useEffect(() => {
    if (partnerId !== null) void markMatchOpened(partnerId).catch(() => undefined);
  }, [partnerId]);
  const needOlder = useCallback(() => void loadOlder(), [loadOlder]);
  // The other person deleted their profile (410 partner_deleted): the conversation is over, so no retry
  // and no composer, and nothing of theirs (it went with them).
  const departed = query.error instanceof ApiError && query.error.code === 'partner_deleted';
  const typing = usePartnerTyping(conversationId, myProfileId) && !departed;
  const composer = useRef<ComposerHandle>(null);
  const pickOpener = useCallback((line: string) => composer.current?.fill(line), []);

  return (
    <section
      className="chat-screen"
      aria-label={participant ? t('app.chat.conversationWith', { name: participant.name }) : t('app.chat.title')}
    >
      <header className="chat-header">
        <Link className="chat-back" to="/ChatList" aria-label={t('app.chat.backToChats')}>
          <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
            <path fill="currentColor" d="M15.4 5.4 14 4l-8 8 8 8 1.4-1.4L8.8 12z" />
          </svg>
        </Link>
        {participant && !departed && (
          <Link
            className="chat-peer"
            to={`/UsersProfile/${participant.profile_id}`}
            aria-label={t('app.chat.viewProfile', { name: participant.name })}
          >
            <Avatar name={participant.name} photo={participant.photo} size={36} />
            <span className="chat-peer-text">
              <span className="chat-peer-name">{participant.name}</span>
              {typing && (
                <span className="chat-peer-typing" aria-hidden="true">
                  {t('app.chat.typing')}
                </span>
              )}
            </span>
          </Link>
        )}
        {participant && !departed && (
          <SafetyActions
            profileId={participant.profile_id}
            name={participant.name}
            gender={participant.gender}
            withUnmatch
            onDone={() => void navigate('/ChatList', { replace: true })}
          >
            <ShareTelegram profileId={participant.profile_id} variant="menu" />
          </SafetyActions>
        )}
        {/* Said to a screen reader here: the line under the name is inside the link, whose label is its own. */}
        <span className="visually-hidden" role="status">
          {typing && participant ? `${participant.name}: ${t('app.chat.typing')}` : ''}
        </span>
      </header>
      {departed ? (
        <div className="chat-departed" role="status">
          <h2>{t('app.chat.partnerDeletedTitle')}</h2>
          <p>{t('app.chat.partnerDeletedText')}</p>
          <Link className="button secondary" to="/ChatList">
            {t('app.chat.backToChats')}
          </Link>
        </div>
      ) : (
        <QueryView query={query} failedKey="app.chat.loadFailed">
          {(conversation) => (
            <>
              <MessageList
                messages={conversation.messages}
                myProfileId={myProfileId}
                participantName={conversation.participant.name}
                hasOlder={conversation.hasOlder}
                loadingOlder={loadingOlder}
                onNeedOlder={needOlder}
                scrollToEndSignal={sentCount}
                footer={
                  conversation.messages.length === 0 && !conversation.hasOlder ? (
                    <Openers
                      partnerId={conversation.participant.profile_id}
                      partnerName={conversation.participant.name}
                      onPick={pickOpener}
                    />
                  ) : null
                }
              />
              {/* A fresh box per conversation: the route stays mounted from one to the next (a toast, Back), and a
                  draft or a message waiting for the connection belongs to the conversation it was written in. */}
              <Composer
                key={conversationId}
                ref={composer}
                conversationId={conversationId}
                onSent={() => setSentCount((n) => n + 1)}
              />
            </>
          )}
        </QueryView>
      )}
    </section>
  );
}
