import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { onLiveEvent } from '../api/liveEvents.ts';
import { chatsQuery } from '../api/queries/chat.ts';
import { photoUrl } from '../lib/photos.ts';
import { platform } from '../platform/index.ts';
import { useSession } from '../session/SessionProvider.tsx';
import './MessageToasts.css';

/** How long a toast stays: long enough to read a name and a few words. The chat list and badge keep the rest. */
const toastMs = 5000;
/** After a hover or focus leaves it, a toast stays at least this long, so it does not vanish under the pointer's way out. */
const afterHoldMs = 2000;
/** More at once would cover the screen: the oldest goes. */
const maxToasts = 3;
/** What the toast quotes of a message. */
const quoteChars = 80;

interface Toast {
  messageId: number;
  conversationId: number;
  name: string | null;
  photo: string | null;
  text: string;
}

/** The message's first words: whitespace folded, cut at a word within `quoteChars`. */
export function firstWords(content: string): string {
  const text = content.replace(/\s+/g, ' ').trim();
  if (text.length <= quoteChars) return text;
  const cut = text.slice(0, quoteChars);
  const space = cut.lastIndexOf(' ');
  return `${(space > quoteChars / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * Where a toast for a message in this conversation would only repeat the screen: the conversation itself
 * shows it, and the chat list moves it to the top with its unread mark.
 */
function showsItAlready(pathname: string, conversationId: number): boolean {
  const path = pathname.toLowerCase();
  return path === '/chatlist' || path === `/chat/${conversationId}`;
}

/** Who wrote, from the chat list (read once more for a conversation it does not hold yet). */
async function senderOf(
  client: QueryClient,
  conversationId: number,
): Promise<{ name: string | null; photo: string | null }> {
  const find = (list: { conversation_id: number; name: string; photo: string | null }[] | undefined) =>
    list?.find((c) => c.conversation_id === conversationId);
  try {
    const row =
      find(await client.query({ ...chatsQuery(), staleTime: 'static' })) ?? find(await client.query(chatsQuery()));
    return { name: row?.name ?? null, photo: row?.photo ?? null };
  } catch {
    return { name: null, photo: null };
  }
}

/**
 * In-app toasts for a message from someone while the user is on another screen (issue 19): the sender,
 * the first words, a tap opens the chat; with a haptic tap (Telegram's, or the web's vibration). Not on
 * the open conversation or the chat list, which show it themselves, and not in a hidden tab.
 */
export function MessageToasts() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const { pathname } = useLocation();
  const { session } = useSession();
  const myProfileId = session.status === 'signedIn' ? (session.profile?.id ?? null) : null;
  const where = useRef({ pathname, myProfileId });
  useEffect(() => {
    where.current = { pathname, myProfileId };
  }, [pathname, myProfileId]);
  const [toasts, setToasts] = useState<Toast[]>([]);

  useEffect(
    () =>
      onLiveEvent((event) => {
        if (event.type !== 'message') return;
        const m = event.payload;
        if (
          m.sender_profile_id === where.current.myProfileId ||
          showsItAlready(where.current.pathname, m.conversation_id)
        )
          return;
        if (document.visibilityState !== 'visible') return;
        platform().haptic('message');
        void senderOf(client, m.conversation_id).then((sender) => {
          // The screen may have changed while the sender was looked up (to this very conversation, say).
          if (showsItAlready(where.current.pathname, m.conversation_id)) return;
          const toast: Toast = {
            messageId: m.message_id,
            conversationId: m.conversation_id,
            ...sender,
            text: firstWords(m.content),
          };
          // One per conversation: the newest message replaces the one before.
          setToasts((list) => [...list.filter((x) => x.conversationId !== m.conversation_id), toast].slice(-maxToasts));
        });
      }),
    [client],
  );

  // Opening the conversation (by the toast or otherwise) retires its toasts.
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the route changed: toasts it makes redundant go
    setToasts((list) =>
      list.some((x) => showsItAlready(pathname, x.conversationId))
        ? list.filter((x) => !showsItAlready(pathname, x.conversationId))
        : list,
    );
  }, [pathname]);

  const remove = (messageId: number) => setToasts((list) => list.filter((x) => x.messageId !== messageId));
  return (
    <div className="toasts" role="log" aria-label={t('app.toasts.label')}>
      {toasts.map((toast) => (
        <ToastItem key={toast.messageId} toast={toast} onGone={() => remove(toast.messageId)} />
      ))}
    </div>
  );
}

function ToastItem({ toast, onGone }: { toast: Toast; onGone: () => void }) {
  const { t } = useTranslation();
  const gone = useRef(onGone);
  useEffect(() => {
    gone.current = onGone;
  }, [onGone]);
  // Hovered or focused, the toast stays (WCAG 2.2.1): its time runs only while nobody is on it, and what was
  // left of it (at least afterHoldMs) runs on after.
  const [held, setHeld] = useState({ hovered: false, focused: false });
  const left = useRef(toastMs);
  const paused = held.hovered || held.focused;
  useEffect(() => {
    if (paused) return;
    const started = performance.now();
    const timer = window.setTimeout(() => gone.current(), left.current);
    return () => {
      window.clearTimeout(timer);
      left.current = Math.max(afterHoldMs, left.current - (performance.now() - started));
    };
  }, [paused]);
  const name = toast.name ?? t('app.toasts.newMessage');
  return (
    <Link
      className="toast"
      to={`/chat/${toast.conversationId}`}
      onClick={onGone}
      onPointerEnter={() => setHeld((h) => ({ ...h, hovered: true }))}
      onPointerLeave={() => setHeld((h) => ({ ...h, hovered: false }))}
      onFocus={() => setHeld((h) => ({ ...h, focused: true }))}
      onBlur={() => setHeld((h) => ({ ...h, focused: false }))}
    >
      {toast.photo ? (
        <img className="toast-photo" src={photoUrl(toast.photo, 'thumb')} alt="" width={40} height={40} />
      ) : (
        <span className="toast-photo toast-letter" aria-hidden="true">
          {name.slice(0, 1).toUpperCase()}
        </span>
      )}
      <span className="toast-text">
        <strong>{name}</strong>
        <span>{toast.text}</span>
      </span>
    </Link>
  );
}
