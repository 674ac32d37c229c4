import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import './DeckButtons.css';

/** Held this long, the like button opens "like with a message" instead of liking. */
const longPressMs = 500;

/**
 * Nope and Like (search and training): under the deck, or `overlay` on the card's lower edge where the
 * thumb is; `disabled` while the next card is on its way. The deck adds two smaller buttons: undo
 * (`onUndo`, on the left) and like with a message (`onWrite`, on the right), which a long press on Like
 * (or its context menu) opens too.
 */
export function DeckButtons({
  onDecide,
  disabled = false,
  overlay = false,
  onUndo,
  undoDisabled = false,
  onWrite,
}: {
  onDecide: (liked: boolean) => void;
  disabled?: boolean;
  overlay?: boolean;
  onUndo?: () => void;
  undoDisabled?: boolean;
  onWrite?: () => void;
}) {
  const { t } = useTranslation();
  const pressTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  /** The long press opened the sheet: the click that ends it must not like as well. */
  const pressedLong = useRef(false);
  const cancelPress = () => {
    if (pressTimer.current !== null) clearTimeout(pressTimer.current);
    pressTimer.current = null;
  };
  const write = onWrite;
  const classes = ['deck-buttons', overlay ? 'overlay' : '', onUndo || onWrite ? 'with-extras' : '']
    .filter(Boolean)
    .join(' ');
  return (
    <div className={classes}>
      {onUndo && (
        <button
          type="button"
          className="round-button small undo"
          disabled={undoDisabled}
          onClick={onUndo}
          aria-label={t('app.search.undo')}
        >
          <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
            <path
              fill="currentColor"
              d="M12.5 8c-2.65 0-5.05 1-6.9 2.6L2 7v9h9l-3.62-3.62A7.96 7.96 0 0 1 12.5 10c3.54 0 6.55 2.31 7.6 5.5l2.37-.78A10.02 10.02 0 0 0 12.5 8z"
            />
          </svg>
        </button>
      )}
      <button
        type="button"
        className="round-button nope"
        disabled={disabled}
        onClick={() => onDecide(false)}
        aria-label={t('app.search.dislike')}
      >
        <svg viewBox="0 0 24 24" width="30" height="30" aria-hidden="true">
          <path
            fill="currentColor"
            d="M18.3 5.7 12 12l6.3 6.3-1.4 1.4L10.6 13.4 4.3 19.7 2.9 18.3 9.2 12 2.9 5.7l1.4-1.4 6.3 6.3 6.3-6.3z"
          />
        </svg>
      </button>
      <button
        type="button"
        className="round-button like"
        disabled={disabled}
        onPointerDown={() => {
          pressedLong.current = false;
          if (!write) return;
          cancelPress();
          pressTimer.current = setTimeout(() => {
            pressTimer.current = null;
            pressedLong.current = true;
            write();
          }, longPressMs);
        }}
        onPointerUp={cancelPress}
        onPointerLeave={cancelPress}
        onPointerCancel={cancelPress}
        onContextMenu={(event) => {
          // A long press on a phone, a right click on a computer: the secondary path, not the browser's menu.
          if (!write) return;
          event.preventDefault();
          cancelPress();
          if (!pressedLong.current) {
            pressedLong.current = true;
            write();
          }
        }}
        onClick={() => {
          if (pressedLong.current) {
            pressedLong.current = false;
            return;
          }
          onDecide(true);
        }}
        aria-label={t('app.search.like')}
      >
        <svg viewBox="0 0 24 24" width="30" height="30" aria-hidden="true">
          <path
            fill="currentColor"
            d="M12 21.4 10.6 20C5.4 15.4 2 12.3 2 8.5 2 5.4 4.4 3 7.5 3c1.7 0 3.4.8 4.5 2.1C13.1 3.8 14.8 3 16.5 3 19.6 3 22 5.4 22 8.5c0 3.8-3.4 6.9-8.6 11.5z"
          />
        </svg>
      </button>
      {onWrite && (
        <button
          type="button"
          className="round-button small write"
          disabled={disabled}
          onClick={onWrite}
          aria-label={t('app.search.likeWithMessage')}
        >
          <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
            <path
              fill="currentColor"
              d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H8l-4 4V6a2 2 0 0 1 2-2zm8 11.2.7-.6C15.3 12.3 17 10.8 17 9a2.5 2.5 0 0 0-2.5-2.5c-.95 0-1.87.45-2.5 1.15A3.34 3.34 0 0 0 9.5 6.5 2.5 2.5 0 0 0 7 9c0 1.8 1.7 3.3 4.3 5.6z"
            />
          </svg>
        </button>
      )}
    </div>
  );
}
