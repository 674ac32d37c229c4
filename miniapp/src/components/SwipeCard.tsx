import { useRef, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { useSwipeable } from 'react-swipeable';
import type { Card } from '../api/queries/search.ts';
import { photoUrl } from '../lib/photos.ts';
import { indicatorOf, verdictOf } from '../lib/swipeRules.ts';
import './SwipeCard.css';

/**
 * The card on top of the deck. While a finger or the mouse drags it, only its transform changes (set on
 * the element, not through React state: no re-render per pointer event, so it keeps 60 fps), and the
 * LIKE / NOPE stamp appears after 15 px. Released past 50 px it decides; short of that it springs back.
 */
export function SwipeCard({
  card,
  onDecide,
  onExpand,
}: {
  card: Card;
  /** `fromPx`: where the card was let go, so it flies on from there. */
  onDecide: (liked: boolean, fromPx: number) => void;
  onExpand?: (expanded: boolean) => void;
}) {
  const { t } = useTranslation();
  const element = useRef<HTMLDivElement | null>(null);
  const [expanded, setExpanded] = useState(false);
  const [photoIndex, setPhotoIndex] = useState(0);
  const photos = card.photo.split(',').filter(Boolean);

  const place = (dx: number, dy: number) => {
    const el = element.current;
    if (!el) return;
    el.style.transform = dx || dy ? `translate3d(${dx}px, ${expanded ? 0 : dy * 0.15}px, 0) rotate(${dx / 24}deg)` : '';
    el.dataset.indicator = expanded ? '' : (indicatorOf(dx) ?? '');
    el.classList.toggle('dragging', dx !== 0 || dy !== 0);
  };

  const handlers = useSwipeable({
    onSwiping: (e) => place(e.deltaX, e.deltaY),
    onSwiped: (e) => {
      place(0, 0);
      const verdict = verdictOf(e.deltaX, e.deltaY, expanded);
      if (verdict === 'like' || verdict === 'dislike') onDecide(verdict === 'like', e.deltaX);
      else if (verdict === 'expand') {
        setExpanded(true);
        onExpand?.(true);
      } else if (verdict === 'collapse') {
        setExpanded(false);
        onExpand?.(false);
      } else if (verdict === 'nextPhoto') setPhotoIndex((i) => Math.min(photos.length - 1, i + 1));
      else if (verdict === 'previousPhoto') setPhotoIndex((i) => Math.max(0, i - 1));
    },
    onTouchEndOrOnMouseUp: () => place(0, 0),
    trackMouse: true,
    preventScrollOnSwipe: true,
    delta: 4,
  });
  const photo = photos[Math.min(photoIndex, photos.length - 1)];

  return (
    <div
      {...handlers}
      ref={(el) => {
        handlers.ref(el);
        element.current = el;
      }}
      className={expanded ? 'swipe-card expanded' : 'swipe-card'}
      data-profile-id={card.profile_id}
      aria-label={t('app.search.cardLabel', { name: card.name, age: card.age })}
      role="group"
    >
      {photo && <img className="swipe-photo" src={photoUrl(photo)} alt="" width={640} height={852} draggable={false} />}
      {photos.length > 1 && (
        <div className="photo-dots" aria-hidden="true">
          {photos.map((p, i) => (
            <span key={p} className={i === photoIndex ? 'on' : ''} />
          ))}
        </div>
      )}
      <span className="stamp stamp-like" aria-hidden="true">
        {t('app.search.stampLike')}
      </span>
      <span className="stamp stamp-nope" aria-hidden="true">
        {t('app.search.stampNope')}
      </span>
      <div className="swipe-info">
        <div className="swipe-title">
          <h2>
            {card.name}, {card.age}
          </h2>
          <button type="button" className="info-button" aria-expanded={expanded} onClick={() => setExpanded((v) => !v)} aria-label={t('app.search.info')}>
            i
          </button>
        </div>
        <p className="swipe-where">
          {card.city}
          {card.distance !== null && ` · ${t('app.matches.distance', { km: card.distance })}`}
        </p>
        {expanded && <p className="swipe-bio">{card.bio}</p>}
      </div>
    </div>
  );
}

/**
 * The decided card flying off the deck (300 ms, spec section 9) above the next one, which is already
 * there: the next person shows at once and the leaving one still reads as a like or a pass. Transform
 * and opacity only; a copy outside the deck's interactive card, so nothing can grab it mid-flight.
 */
export function LeavingCard({ card, liked, fromPx }: { card: Card; liked: boolean; fromPx: number }) {
  const { t } = useTranslation();
  const photo = card.photo.split(',').find(Boolean);
  return (
    <div
      className={liked ? 'swipe-ghost like' : 'swipe-ghost nope'}
      style={{ '--from': `${fromPx}px`, '--tilt': `${fromPx / 24}deg` } as CSSProperties}
      aria-hidden="true"
    >
      {photo && <img className="swipe-photo" src={photoUrl(photo)} alt="" width={640} height={852} draggable={false} />}
      <span className={liked ? 'stamp stamp-like' : 'stamp stamp-nope'}>{liked ? t('app.search.stampLike') : t('app.search.stampNope')}</span>
      <div className="swipe-info">
        <div className="swipe-title">
          <h2>
            {card.name}, {card.age}
          </h2>
        </div>
      </div>
    </div>
  );
}
