import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { photoUrl } from '../lib/photos.ts';
import './PhotoGallery.css';

/**
 * One person's photos, one at a time, as on the deck and on every profile screen: segment bars at the
 * top say how many there are and which one shows; the left and right thirds step back and on, the middle
 * third opens the details where there are any (`onMiddle`). One <img> whose src changes, so a step is a
 * repaint, not a layout change. The next photo is preloaded so it appears at once.
 */
export function PhotoGallery({
  photos,
  name,
  onMiddle,
  middleLabel,
  ignoreTap,
  eager = true,
  priority = false,
  index: indexProp,
  onIndexChange,
}: {
  photos: readonly string[];
  name: string;
  onMiddle?: () => void;
  middleLabel?: string;
  /** The deck's card: a tap that ended a drag is not a tap. */
  ignoreTap?: () => boolean;
  eager?: boolean;
  /** The screen's largest paint (the deck's card): its photo is fetched before other images. */
  priority?: boolean;
  /** Given by the deck's card, whose swipes on the open details also step through the photos. */
  index?: number;
  onIndexChange?: (index: number) => void;
}) {
  const { t } = useTranslation();
  const [ownIndex, setOwnIndex] = useState(0);
  const index = indexProp ?? ownIndex;
  const setIndex = (value: number) => {
    setOwnIndex(value);
    onIndexChange?.(value);
  };
  const shown = Math.min(index, photos.length - 1);
  const photo = photos[shown];
  const next = photos[shown + 1];
  const step = (by: number) => {
    if (ignoreTap?.()) return;
    setIndex(Math.max(0, Math.min(photos.length - 1, shown + by)));
  };
  return (
    <div className="gallery" data-photo-index={shown}>
      {photo && (
        <img
          className="gallery-photo"
          src={photoUrl(photo)}
          alt={t('app.matches.photoOf', { n: shown + 1, total: photos.length, name })}
          width={640}
          height={852}
          draggable={false}
          loading={eager ? 'eager' : 'lazy'}
          fetchPriority={priority ? 'high' : 'auto'}
          decoding="async"
        />
      )}
      {next && <link rel="preload" as="image" href={photoUrl(next)} />}
      {photos.length > 1 && (
        <div className="gallery-segments" aria-hidden="true">
          {photos.map((p, i) => (
            <span key={p} className={i === shown ? 'on' : ''} />
          ))}
        </div>
      )}
      <div className="gallery-zones">
        {/* aria-disabled, not disabled: a disabled button swallows the pointer events a drag of the card starts with. */}
        <button
          type="button"
          className="gallery-zone previous"
          aria-disabled={shown === 0}
          aria-label={t('app.gallery.previous')}
          onClick={() => step(-1)}
        />
        {onMiddle ? (
          <button
            type="button"
            className="gallery-zone middle"
            aria-label={middleLabel}
            onClick={() => {
              if (!ignoreTap?.()) onMiddle();
            }}
          />
        ) : (
          <span className="gallery-zone middle" />
        )}
        <button
          type="button"
          className="gallery-zone next"
          aria-disabled={shown >= photos.length - 1}
          aria-label={t('app.gallery.next')}
          onClick={() => step(1)}
        />
      </div>
    </div>
  );
}
