import { useState, type KeyboardEvent, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { maxMessageLength } from '../../../../server/contract/chat.ts';
import { ApiError } from '../../api/client.ts';
import { errorText } from '../../lib/errorText.ts';

/**
 * The message box. Whitespace-only text is never sent (spec section 8): the button stays disabled and
 * Enter does nothing. Enter sends, Shift+Enter breaks the line. A failed send keeps the text.
 */
export function Composer({ onSend }: { onSend: (content: string) => Promise<unknown> }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<{ text: string; premium: boolean } | null>(null);
  const content = text.trim();

  async function submit(event?: SyntheticEvent) {
    event?.preventDefault();
    if (!content || sending) return;
    setSending(true);
    setError(null);
    try {
      await onSend(content);
      setText('');
    } catch (failure) {
      setError({ text: errorText(t, failure, 'app.chat.sendFailed'), premium: failure instanceof ApiError && failure.code === 'message_limit' });
    } finally {
      setSending(false);
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    }
  }

  return (
    <form className="composer" onSubmit={(e) => void submit(e)}>
      {error && (
        <p className="composer-error" role="alert">
          {error.text} {error.premium && <Link to="/subscription">{t('app.chat.getPremium')}</Link>}
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
        <button type="submit" className="send-button" disabled={!content || sending} aria-label={t('app.chat.send')}>
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
            <path fill="currentColor" d="M3.4 20.4 21 12 3.4 3.6 3.3 10l12.6 2-12.6 2z" />
          </svg>
        </button>
      </div>
    </form>
  );
}
