import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { photoUrl } from '../../lib/photos.ts';

/** A photo on the photo editor: one the profile has (by its file name), or one cropped here and not saved yet. */
export type PhotoItem = { kind: 'kept'; name: string; url: string } | { kind: 'added'; blob: Blob; url: string };

/**
 * The photo editor's thumbnails in order, each with Remove, and Earlier for a kept one that is not first.
 * A kept photo the upload screen held for a moderator (issue 40: seen by its owner only) is marked so.
 */
export function PhotoPreviews({
  items,
  onRemove,
  onMoveEarlier,
  underReview = [],
}: {
  items: PhotoItem[];
  onRemove: (item: PhotoItem) => void;
  onMoveEarlier: (index: number) => void;
  /** Names of kept photos under review (the own profile's `under_review`). */
  underReview?: readonly string[];
}) {
  const { t } = useTranslation();
  return (
    <ul className="photo-previews">
      {items.map((item, i) => (
        <li key={item.url} data-under-review={item.kind === 'kept' && underReview.includes(item.name) ? '' : undefined}>
          <img src={item.url} alt={t('app.wizard.photoN', { n: i + 1 })} width={96} height={128} />
          {item.kind === 'kept' && underReview.includes(item.name) && (
            <span className="photo-review">{t('verification.underReview')}</span>
          )}
          <button
            type="button"
            className="photo-remove"
            onClick={() => onRemove(item)}
            aria-label={t('app.wizard.removePhoto', { n: i + 1 })}
          >
            ×
          </button>
          {i > 0 && item.kind === 'kept' && (
            <button
              type="button"
              className="photo-earlier"
              onClick={() => onMoveEarlier(i)}
              aria-label={t('app.profile.moveEarlier', { n: i + 1 })}
            >
              ←
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}

/**
 * The photo editor's list: the profile's photos first, then the ones cropped here. A photo of this
 * screen's own (an object URL) is released when it is removed or the screen closes.
 */
export function usePhotoItems(photos: string[]) {
  const [items, setItems] = useState<PhotoItem[]>(
    photos.map((name) => ({ kind: 'kept', name, url: photoUrl(name, 'thumb') })),
  );
  const latest = useRef(items);
  useEffect(() => {
    latest.current = items;
  }, [items]);
  useEffect(() => () => latest.current.forEach((i) => i.kind === 'added' && URL.revokeObjectURL(i.url)), []);

  const add = (blob: Blob) => setItems((list) => [...list, { kind: 'added', blob, url: URL.createObjectURL(blob) }]);
  const remove = (item: PhotoItem) => {
    if (item.kind === 'added') URL.revokeObjectURL(item.url);
    setItems((list) => list.filter((x) => x !== item));
  };
  const moveEarlier = (index: number) =>
    setItems((list) => {
      if (index === 0) return list;
      const next = [...list];
      const [item] = next.splice(index, 1);
      if (item) next.splice(index - 1, 0, item);
      return next;
    });
  return { items, add, remove, moveEarlier };
}
