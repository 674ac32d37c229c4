import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchTelegramPhoto } from '../../../api/telegramPhoto.ts';
import { platform } from '../../../platform/platform.ts';
import './TelegramPhotoOffer.css';

/**
 * Inside Telegram, the photos step offers the user's Telegram profile photo (issue 39): shown small, and
 * taken through the same cropper as a picked file (`onPicked` with its object URL), then uploaded like any
 * photo. Nothing is shown when there is none to offer.
 */
export function TelegramPhotoOffer({ onPicked }: { onPicked: (url: string) => void }) {
  const { t } = useTranslation();
  const [photo, setPhoto] = useState<{ blob: Blob; url: string } | null>(null);
  useEffect(() => {
    if (platform().kind !== 'telegram') return;
    let live = true;
    let url: string | null = null;
    void fetchTelegramPhoto().then((blob) => {
      if (!live || !blob) return;
      url = URL.createObjectURL(blob);
      setPhoto({ blob, url });
    });
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, []);
  if (!photo) return null;
  return (
    <div className="telegram-photo-offer">
      <img src={photo.url} alt={t('app.wizard.telegramPhotoAlt')} width={56} height={56} />
      <button type="button" className="button secondary" onClick={() => onPicked(URL.createObjectURL(photo.blob))}>
        {t('app.wizard.telegramPhoto')}
      </button>
    </div>
  );
}
