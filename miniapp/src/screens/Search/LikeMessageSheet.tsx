import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { likeMessageMaxLength } from '@contract/deckRules.ts';
import { useSubscription } from '../../api/queries/premium.ts';
import { BottomSheet } from '../../components/BottomSheet.tsx';
import './LikeMessageSheet.css';

/**
 * "Like with a message" (issue 38): a sheet over the deck with a text field and its counter. Sending likes
 * the card on screen with the words (trimmed, 1 to 200 characters, as the server takes them); closing it
 * likes nobody. The words are kept while the sheet is closed for the same person, so a slip loses nothing.
 * It reads the subscription through the query cache, so it is rendered inside the cache's provider
 * (deckExtras.ts): the deck's first card comes without either (issue 41).
 */
export function LikeMessageSheet({
  open,
  name,
  onSend,
  onClose,
}: {
  open: boolean;
  /** Whom the like goes to, for the field's label. */
  name: string;
  onSend: (message: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  /** Premium users write with every like: the free allowance is not mentioned to them. */
  const premium = useSubscription().data?.isActive ?? false;
  const [text, setText] = useState('');
  const field = useRef<HTMLTextAreaElement>(null);
  const hintId = useId();
  const counterId = useId();
  useEffect(() => {
    if (open) field.current?.focus();
  }, [open]);
  const trimmed = text.trim();
  const send = () => {
    if (!trimmed) return;
    onSend(trimmed);
    setText('');
  };
  return (
    <BottomSheet open={open} title={t('app.search.messageTitle')} onClose={onClose}>
      <form
        className="like-message"
        onSubmit={(event) => {
          event.preventDefault();
          send();
        }}
      >
        <label className="like-message-label" htmlFor={`${hintId}-field`}>
          {t('app.search.messageLabel')} · {name}
        </label>
        <textarea
          id={`${hintId}-field`}
          ref={field}
          value={text}
          rows={4}
          maxLength={likeMessageMaxLength}
          placeholder={t('app.search.messagePlaceholder')}
          aria-describedby={`${hintId} ${counterId}`}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            // Enter sends on a computer, Shift+Enter breaks the line (a phone's Enter key breaks it too).
            if (
              event.key === 'Enter' &&
              !event.shiftKey &&
              !event.nativeEvent.isComposing &&
              window.matchMedia('(pointer: fine)').matches
            ) {
              event.preventDefault();
              send();
            }
          }}
        />
        <div className="like-message-meta">
          <p id={hintId} className="muted">
            {t('app.search.messageHint')}
            {!premium && ` ${t('app.search.messageFreeLeft')}`}
          </p>
          <span
            id={counterId}
            className={text.length >= likeMessageMaxLength ? 'like-message-count full' : 'like-message-count'}
          >
            {t('app.search.messageCount', { count: text.length, max: likeMessageMaxLength })}
          </span>
        </div>
        <div className="like-message-actions">
          <button type="button" className="button secondary" onClick={onClose}>
            {t('app.search.cancel')}
          </button>
          <button type="submit" className="button" disabled={!trimmed}>
            {t('app.search.sendLike')}
          </button>
        </div>
      </form>
    </BottomSheet>
  );
}
