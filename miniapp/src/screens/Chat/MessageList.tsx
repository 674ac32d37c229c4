import { Fragment, useCallback, useEffect, useLayoutEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Message } from '@contract/chat.ts';
import { clock, dayKey, dayLabel } from './messageTime.ts';

interface Props {
  messages: Message[];
  myProfileId: number | null;
  participantName: string;
  hasOlder: boolean;
  loadingOlder: boolean;
  onNeedOlder: () => void;
  /** Changes when the caller wants the view at the bottom (after sending). */
  scrollToEndSignal: number;
  /** Shown after the last message (an empty conversation's openers). */
  footer?: ReactNode;
}

/** Spec section 9: older messages load when the view is scrolled up past half of what can be scrolled. */
const loadOlderAt = 0.5;
const scrollDebounceMs = 100;
/** Within this distance of the bottom, new messages keep the view at the bottom. */
const stickyPx = 120;

/**
 * The messages, oldest at the top. Opens at the bottom; prepending an older page keeps the message the
 * person is looking at in place (the scroll offset grows by exactly the height added above it).
 */
export function MessageList({
  messages,
  myProfileId,
  participantName,
  hasOlder,
  loadingOlder,
  onNeedOlder,
  scrollToEndSignal,
  footer,
}: Props) {
  const { t, i18n } = useTranslation();
  const list = useRef<HTMLDivElement>(null);
  const firstId = useRef<number | null>(null);
  const lastId = useRef<number | null>(null);
  const heightBefore = useRef(0);
  const wasNearBottom = useRef(true);
  const debounce = useRef<number | undefined>(undefined);

  // Before the DOM changes: remember where we are, to restore it after.
  const remember = useCallback(() => {
    const el = list.current;
    if (!el) return;
    heightBefore.current = el.scrollHeight;
    wasNearBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < stickyPx;
  }, []);

  useLayoutEffect(() => {
    const el = list.current;
    if (!el) return;
    const first = messages[0]?.message_id ?? null;
    const last = messages.at(-1)?.message_id ?? null;
    if (firstId.current === null) {
      el.scrollTop = el.scrollHeight;
    } else if (first !== null && first < firstId.current) {
      // Older page prepended: keep the same message under the finger.
      el.scrollTop += el.scrollHeight - heightBefore.current;
    } else if (last !== lastId.current) {
      const mine = messages.at(-1)?.sender_profile_id === myProfileId;
      if (mine || wasNearBottom.current) el.scrollTop = el.scrollHeight;
    }
    firstId.current = first;
    lastId.current = last;
    heightBefore.current = el.scrollHeight;
    wasNearBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < stickyPx;
    // A short first page that does not fill the screen cannot be scrolled: fetch more at once.
    if (hasOlder && !loadingOlder && el.scrollHeight <= el.clientHeight) onNeedOlder();
  }, [messages, myProfileId, hasOlder, loadingOlder, onNeedOlder]);

  useLayoutEffect(() => {
    const el = list.current;
    if (el && scrollToEndSignal > 0) el.scrollTop = el.scrollHeight;
  }, [scrollToEndSignal]);

  useEffect(() => () => window.clearTimeout(debounce.current), []);

  const onScroll = () => {
    remember();
    window.clearTimeout(debounce.current);
    debounce.current = window.setTimeout(() => {
      const el = list.current;
      if (!el || !hasOlder || loadingOlder) return;
      const scrollable = el.scrollHeight - el.clientHeight;
      if (scrollable > 0 && el.scrollTop < scrollable * loadOlderAt) {
        remember();
        onNeedOlder();
      }
    }, scrollDebounceMs);
  };

  const labels = { today: t('app.chat.today'), yesterday: t('app.chat.yesterday') };
  return (
    <div className="message-pane">
      {/* Over the list, not in it: a line added above the messages would push them down. */}
      {loadingOlder && (
        <p className="loading-older" role="status">
          {t('app.chat.loadingOlder')}
        </p>
      )}
      <div
        className="message-list"
        ref={list}
        onScroll={onScroll}
        role="log"
        aria-live="polite"
        aria-label={t('app.chat.messagesWith', { name: participantName })}
        tabIndex={0}
      >
        {!hasOlder && <p className="message-note">{t('app.chat.beginning', { name: participantName })}</p>}
        {messages.map((m, i) => {
          const mine = m.sender_profile_id === myProfileId;
          const newDay = i === 0 || dayKey(messages[i - 1]?.timestamp ?? '') !== dayKey(m.timestamp);
          return (
            <Fragment key={m.message_id}>
              {newDay && <p className="day-separator">{dayLabel(m.timestamp, i18n.language, labels)}</p>}
              <div className={mine ? 'bubble mine' : 'bubble theirs'} data-message-id={m.message_id}>
                <p className="bubble-text">{m.content}</p>
                <span className="bubble-meta">
                  <time dateTime={m.timestamp}>{clock(m.timestamp, i18n.language)}</time>
                  {mine && (
                    <span
                      className={m.read ? 'tick read' : 'tick'}
                      role="img"
                      aria-label={m.read ? t('app.chat.read') : t('app.chat.sent')}
                    >
                      {m.read ? '✓✓' : '✓'}
                    </span>
                  )}
                </span>
              </div>
            </Fragment>
          );
        })}
        {footer}
      </div>
    </div>
  );
}
