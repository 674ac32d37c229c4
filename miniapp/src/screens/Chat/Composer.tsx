import { useState, type KeyboardEvent, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { maxMessageLength } from '@contract/chat.ts';
import { ApiError } from '../../api/client.ts';
import { useSendMessage } from '../../api/queries/chat.ts';
import { useClosingConfirmation } from '../../components/useClosingConfirmation.ts';
import { errorText } from '../../lib/errorText.ts';

/**
 * The message box. Whitespace-only text is never sent (spec section 8): the button stays disabled and
 * Enter does nothing. Enter sends, Shift+Enter breaks the line. A failed send keeps the text.
 */
export function Composer({ conversationId, onSent }: { conversationId: number; onSent: () => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const send = useSendMessage(conversationId);
  const content = text.trim();
  useClosingConfirmation(content !== '');
  const failure = send.error;

  function submit(event?: SyntheticEvent) {
    event?.preventDefault();
    if (!content || send.isPending) return;
    send.mutate(content, {
      onSuccess: () => {
        setText('');
        onSent();
      },
    });
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  }

  return (
    <form className="composer" onSubmit={submit}>
      {failure && (
        <p className="composer-error" role="alert">
          {errorText(t, failure, 'app.chat.sendFailed')}{' '}
          {failure instanceof ApiError && failure.code === 'message_limit' && <Link to="/subscription">{t('app.chat.getPremium')}</Link>}
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
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          enterKeyHint="send"
        />
        <button type="submit" className="send-button" disabled={!content || send.isPending} aria-label={t('app.chat.send')}>
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
            <path fill="currentColor" d="M3.4 20.4 21 12 3.4 3.6 3.3 10l12.6 2-12.6 2z" />
          </svg>
        </button>
      </div>
    </form>
  );
}
