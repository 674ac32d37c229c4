import { useRef, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { useSwipeable } from 'react-swipeable';
import type { Card } from '../api/queries/search.ts';
import { photoUrl } from '../lib/photos.ts';
import { ActiveRecently } from './ActiveRecently.tsx';
import { LikeNote } from './LikeNote.tsx';
import { PhotoGallery } from './PhotoGallery.tsx';
import { PromptAnswers } from './PromptAnswers.tsx';
import { VerifiedBadge } from './VerifiedBadge.tsx';
import { indicatorOf, verdictOf } from '../lib/swipeRules.ts';
import './SwipeCard.css';

/**
 * The card on top of the deck: the person's photos (PhotoGallery: bars, tap zones), and over a gradient
 * at the bottom name, age, how recently they were active, city and distance. While a finger or the mouse drags it, only its transform
 * changes (set on the element, not through React state: no re-render per pointer event, so it keeps
 * 60 fps), and the LIKE / NOPE stamp appears after 15 px. Released past 50 px it decides; short of that
 * it springs back. `expanded` (the details) is the screen's, so the keyboard's ↑ can open it too.
 */
export function SwipeCard({
  card,
  onDecide,
  expanded: expandedProp,
  onExpand,
  photoIndex: photoIndexProp,
  onPhotoIndex,
}: {
  card: Card;
  /** `fromPx`: where the card was let go, so it flies on from there. */
  onDecide: (liked: boolean, fromPx: number) => void;
  expanded?: boolean;
  onExpand?: (expanded: boolean) => void;
  /** The photo shown, when the screen keeps it (the card flying off shows the same one). */
  photoIndex?: number;
  onPhotoIndex?: (index: number) => void;
}) {
  const { t } = useTranslation();
  const element = useRef<HTMLDivElement | null>(null);
  const [ownExpanded, setOwnExpanded] = useState(false);
  const expanded = expandedProp ?? ownExpanded;
  const setExpanded = (value: boolean) => {
    setOwnExpanded(value);
    onExpand?.(value);
  };
  /** The pointer moved since it went down: the click that ends a drag is no tap on the photo. */
  const dragged = useRef(false);
  const [ownPhotoIndex, setOwnPhotoIndex] = useState(0);
  const photoIndex = photoIndexProp ?? ownPhotoIndex;
  const setPhotoIndex = (index: number) => {
    setOwnPhotoIndex(index);
    onPhotoIndex?.(index);
  };
  const photos = card.photo.split(',').filter(Boolean);

  const place = (dx: number, dy: number) => {
    const el = element.current;
    if (!el) return;
    el.style.transform = dx || dy ? `translate3d(${dx}px, ${expanded ? 0 : dy * 0.15}px, 0) rotate(${dx / 24}deg)` : '';
    el.dataset.indicator = expanded ? '' : (indicatorOf(dx) ?? '');
    el.classList.toggle('dragging', dx !== 0 || dy !== 0);
  };

  const handlers = useSwipeable({
    onSwipeStart: () => {
      dragged.current = true;
    },
    onSwiping: (e) => place(e.deltaX, e.deltaY),
    onSwiped: (e) => {
      place(0, 0);
      const verdict = verdictOf(e.deltaX, e.deltaY, expanded);
      if (verdict === 'like' || verdict === 'dislike') onDecide(verdict === 'like', e.deltaX);
      else if (verdict === 'expand') setExpanded(true);
      else if (verdict === 'collapse') setExpanded(false);
      else if (verdict === 'nextPhoto') setPhotoIndex(Math.min(photos.length - 1, photoIndex + 1));
      else if (verdict === 'previousPhoto') setPhotoIndex(Math.max(0, photoIndex - 1));
    },
    onTouchEndOrOnMouseUp: () => place(0, 0),
    trackMouse: true,
    preventScrollOnSwipe: true,
    delta: 4,
  });

  return (
    <div
      {...handlers}
      ref={(el) => {
        handlers.ref(el);
        element.current = el;
      }}
      onPointerDown={() => {
        dragged.current = false;
      }}
      className={expanded ? 'swipe-card expanded' : 'swipe-card'}
      data-profile-id={card.profile_id}
      aria-label={t('app.search.cardLabel', { name: card.name, age: card.age })}
      role="group"
    >
      <PhotoGallery
        photos={photos}
        name={card.name}
        index={photoIndex}
        onIndexChange={setPhotoIndex}
        onMiddle={() => setExpanded(!expanded)}
        middleLabel={t('app.search.info')}
        ignoreTap={() => dragged.current}
        priority
      />
      {card.message && <LikeNote message={card.message} gender={card.gender} />}
      <span className="stamp stamp-like" aria-hidden="true">
        {t('app.search.stampLike')}
      </span>
      <span className="stamp stamp-nope" aria-hidden="true">
        {t('app.search.stampNope')}
      </span>
      <div className="swipe-info">
        {/* The first answer over the photo (issue 38): what a conversation most often starts from. */}
        {!expanded && <PromptAnswers prompts={card.prompts} variant="card" />}
        <div className="swipe-title">
          <h2>
            {card.name}, {card.age}
            <VerifiedBadge verified={card.verified} />
          </h2>
          <button
            type="button"
            className="info-button"
            aria-expanded={expanded}
            onClick={() => setExpanded(!expanded)}
            aria-label={t('app.search.info')}
          >
            i
          </button>
        </div>
        <ActiveRecently activity={card.active_recently} gender={card.gender} />
        <p className="swipe-where">
          {card.city}
          {card.distance !== null && ` · ${t('app.matches.distance', { km: card.distance })}`}
        </p>
        {expanded && <p className="swipe-bio">{card.bio}</p>}
        {expanded && <PromptAnswers prompts={card.prompts} variant="cardAll" />}
      </div>
    </div>
  );
}

/**
 * The decided card flying off the deck (300 ms, spec section 9) above the next one, which is already
 * there: the next person shows at once and the leaving one still reads as a like or a pass. Transform
 * and opacity only; a copy outside the deck's interactive card, so nothing can grab it mid-flight.
 */
export function LeavingCard({
  card,
  liked,
  fromPx,
  photoIndex = 0,
}: {
  card: Card;
  liked: boolean;
  fromPx: number;
  photoIndex?: number;
}) {
  const { t } = useTranslation();
  const photos = card.photo.split(',').filter(Boolean);
  const photo = photos[Math.min(photoIndex, photos.length - 1)];
  return (
    <div
      className={liked ? 'swipe-ghost like' : 'swipe-ghost nope'}
      style={{ '--from': `${fromPx}px`, '--tilt': `${fromPx / 24}deg` } as CSSProperties}
      aria-hidden="true"
    >
      {photo && <img className="swipe-photo" src={photoUrl(photo)} alt="" width={640} height={852} draggable={false} />}
      <span className={liked ? 'stamp stamp-like' : 'stamp stamp-nope'}>
        {liked ? t('app.search.stampLike') : t('app.search.stampNope')}
      </span>
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
