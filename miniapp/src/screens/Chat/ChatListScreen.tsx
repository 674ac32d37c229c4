import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useChats } from '../../api/queries/chat.ts';
import { EmptyState, QueryView } from '../../components/States.tsx';
import { genderContext } from '@locales/genderContext.ts';
import { readerGender, useSession } from '../../session/SessionProvider.tsx';
import { Avatar } from './Avatar.tsx';
import { shortTime } from './messageTime.ts';
import { useTypingConversations } from './useTypingConversations.ts';
import './Chat.css';

/** `/ChatList` (spec sections 2, 3): conversations newest first, with unread marks kept live. */
export default function ChatListScreen() {
  const { t, i18n } = useTranslation();
  // "Напишите первой!" is said to the reader: their own gender.
  const { session } = useSession();
  const context = genderContext(readerGender(session));
  const typing = useTypingConversations(session.status === 'signedIn' ? (session.profile?.id ?? null) : null);
  // A new message anywhere moves that conversation up and marks it unread (api/liveCache.ts).
  const chats = useChats();

  return (
    <section className="chat-list-screen" aria-labelledby="chats-title">
      <h1 id="chats-title">{t('app.chat.title')}</h1>
      <QueryView
        query={chats}
        failedKey="app.errors.chatsFailed"
        isEmpty={(list) => list.length === 0}
        empty={
          <EmptyState title={t('app.errors.noChats')}>
            <p className="muted">{t('app.chat.emptyHint')}</p>
            <Link className="button" to="/matches">
              {t('app.chat.toMatches')}
            </Link>
          </EmptyState>
        }
      >
        {(list) => (
          <ul className="chat-list">
            {list.map((chat) => (
              <li key={chat.conversation_id}>
                <Link className={chat.has_unread ? 'chat-row unread' : 'chat-row'} to={`/chat/${chat.conversation_id}`}>
                  <Avatar name={chat.name} photo={chat.photo} />
                  <span className="chat-row-text">
                    <span className="chat-row-top">
                      <span className="chat-row-name">{chat.name}</span>
                      {chat.last_message_time && (
                        <time className="chat-row-time" dateTime={chat.last_message_time}>
                          {shortTime(chat.last_message_time, i18n.language)}
                        </time>
                      )}
                    </span>
                    <span className={typing.has(chat.conversation_id) ? 'chat-row-last typing' : 'chat-row-last'}>
                      {typing.has(chat.conversation_id)
                        ? t('app.chat.typing')
                        : chat.last_message === null
                          ? t('app.chat.noMessagesYet', { context })
                          : chat.last_message_mine
                            ? t('app.chat.mine', { text: chat.last_message })
                            : chat.last_message}
                    </span>
                  </span>
                  {chat.has_unread && (
                    <span className="unread-dot" role="img" aria-label={t('app.chat.unread')}>
                      <span aria-hidden="true" />
                    </span>
                  )}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </QueryView>
    </section>
  );
}
