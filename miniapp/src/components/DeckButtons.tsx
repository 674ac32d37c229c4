import { useTranslation } from 'react-i18next';

/**
 * Nope and Like (search and training): under the deck, or `overlay` on the card's lower edge where the
 * thumb is; `disabled` while the next card is on its way.
 */
export function DeckButtons({ onDecide, disabled = false, overlay = false }: { onDecide: (liked: boolean) => void; disabled?: boolean; overlay?: boolean }) {
  const { t } = useTranslation();
  return (
    <div className={overlay ? 'deck-buttons overlay' : 'deck-buttons'}>
      <button type="button" className="round-button nope" disabled={disabled} onClick={() => onDecide(false)} aria-label={t('app.search.dislike')}>
        <svg viewBox="0 0 24 24" width="30" height="30" aria-hidden="true">
          <path fill="currentColor" d="M18.3 5.7 12 12l6.3 6.3-1.4 1.4L10.6 13.4 4.3 19.7 2.9 18.3 9.2 12 2.9 5.7l1.4-1.4 6.3 6.3 6.3-6.3z" />
        </svg>
      </button>
      <button type="button" className="round-button like" disabled={disabled} onClick={() => onDecide(true)} aria-label={t('app.search.like')}>
        <svg viewBox="0 0 24 24" width="30" height="30" aria-hidden="true">
          <path
            fill="currentColor"
            d="M12 21.4 10.6 20C5.4 15.4 2 12.3 2 8.5 2 5.4 4.4 3 7.5 3c1.7 0 3.4.8 4.5 2.1C13.1 3.8 14.8 3 16.5 3 19.6 3 22 5.4 22 8.5c0 3.8-3.4 6.9-8.6 11.5z"
          />
        </svg>
      </button>
    </div>
  );
}
