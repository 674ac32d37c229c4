import {
  useEffect,
  useImperativeHandle,
  useRef,
  useState,
  type KeyboardEvent,
  type Ref,
  type SyntheticEvent,
} from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { maxMessageLength, typingIntervalSeconds } from '@contract/chat.ts';
import { ApiError } from '../../api/client.ts';
import { onLiveOpen } from '../../api/liveEvents.ts';
import { newClientKey, sendTyping, useSendMessage, type OutgoingMessage } from '../../api/queries/chat.ts';
import { useClosingConfirmation } from '../../components/useClosingConfirmation.ts';
import { errorText } from '../../lib/errorText.ts';

const isOffline = (error: unknown) => error instanceof ApiError && error.code === 'network';

/** What the conversation may do to the box: put a line in it (an opener), to be edited or sent. */
export interface ComposerHandle {
  fill(line: string): void;
}

/**
 * The message box. Whitespace-only text is never sent (spec section 8): the button stays disabled and
 * Enter does nothing. Enter sends, Shift+Enter breaks the line. A failed send keeps the text. One lost to
 * the connection is sent again by itself once the connection is back (the browser's `online`, or the live
 * stream opening again), or at once with "Send again"; every attempt carries the same `client_key`, so the
 * message arrives once however many attempts reached the server. While the person types, the other one is
 * told so (`sendTyping`), at most once in `typingIntervalSeconds`, as the server would let through anyway.
 */
export function Composer({
  conversationId,
  onSent,
  ref,
}: {
  conversationId: number;
  onSent: () => void;
  ref?: Ref<ComposerHandle>;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const box = useRef<HTMLTextAreaElement>(null);
  useImperativeHandle(ref, () => ({
    fill(line: string) {
      setText(line);
      box.current?.focus();
    },
  }));
  const lastTyping = useRef(0);
  function type(value: string) {
    setText(value);
    const now = Date.now();
    if (value.trim() && now - lastTyping.current >= typingIntervalSeconds * 1000) {
      lastTyping.current = now;
      sendTyping(conversationId);
    }
  }
  const send = useSendMessage(conversationId);
  const content = text.trim();
  useClosingConfirmation(content !== '');
  const failure = send.error;
  const offline = isOffline(failure);
  // The message being sent, or waiting to be sent again: its key stays while its text does.
  const outgoing = useRef<OutgoingMessage | null>(null);

  function deliver(next: OutgoingMessage) {
    outgoing.current = next;
    send.mutate(next, {
      onSuccess: () => {
        outgoing.current = null;
        // Only the text that went: anything typed since stays in the box.
        setText((now) => (now.trim() === next.content ? '' : now));
        onSent();
      },
    });
  }

  function submit(event?: SyntheticEvent) {
    event?.preventDefault();
    if (!content || send.isPending) return;
    const same = outgoing.current?.content === content ? outgoing.current : null;
    deliver(same ?? { content, clientKey: newClientKey() });
  }

  // Back online: what the connection lost goes again, once per reconnection.
  const resend = useRef<() => void>(() => undefined);
  useEffect(() => {
    resend.current = () => {
      const waiting = outgoing.current;
      if (offline && waiting && !send.isPending) deliver(waiting);
    };
  });
  useEffect(() => {
    const again = () => resend.current();
    window.addEventListener('online', again);
    const stopLive = onLiveOpen(again);
    return () => {
      window.removeEventListener('online', again);
      stopLive();
    };
  }, []);

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  }

  return (
    <form className="composer" onSubmit={submit}>
      {failure && offline && (
        <div className="composer-error offline" role="alert">
          <span>{t('app.chat.offlinePending')}</span>
          <button type="button" className="link-button" onClick={() => submit()} disabled={!content}>
            {t('app.chat.sendAgain')}
          </button>
        </div>
      )}
      {failure && !offline && (
        <p className="composer-error" role="alert">
          {errorText(t, failure, 'app.chat.sendFailed')}{' '}
          {failure instanceof ApiError && failure.code === 'message_limit' && (
            <Link to="/subscription">{t('app.chat.getPremium')}</Link>
          )}
        </p>
      )}
      <div className="composer-row">
        <label className="visually-hidden" htmlFor="message-input">
          {t('app.chat.placeholder')}
        </label>
        <textarea
          id="message-input"
          rows={1}
          maxLength={maxMessageLength}
          placeholder={t('app.chat.placeholder')}
          value={text}
          ref={box}
          onChange={(e) => type(e.target.value)}
          onKeyDown={onKeyDown}
          enterKeyHint="send"
        />
        <button
          type="submit"
          className="send-button"
          disabled={!content || send.isPending}
          aria-label={t('app.chat.send')}
        >
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
            <path fill="currentColor" d="M3.4 20.4 21 12 3.4 3.6 3.3 10l12.6 2-12.6 2z" />
          </svg>
        </button>
      </div>
    </form>
  );
}
