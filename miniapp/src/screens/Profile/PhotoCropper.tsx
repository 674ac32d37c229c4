import { useState } from 'react';
import Cropper, { type Area } from 'react-easy-crop';
import { useTranslation } from 'react-i18next';
import { cropToJpeg, photoAspect } from './cropPhoto.ts';

/** Crop at 3:4 with zoom 1 to 3 (spec section 9), then Confirm gives the 640x852 JPEG. */
export function PhotoCropper({
  url,
  onDone,
  onCancel,
}: {
  url: string;
  onDone: (photo: Blob) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [crop, setCrop] = useState({ x: 0, y: 0 });
  const [zoom, setZoom] = useState(1);
  const [area, setArea] = useState<Area | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <div className="cropper">
      <div className="cropper-area">
        <Cropper
          image={url}
          crop={crop}
          zoom={zoom}
          minZoom={1}
          maxZoom={3}
          aspect={photoAspect}
          onCropChange={setCrop}
          onZoomChange={setZoom}
          onCropComplete={(_, pixels) => setArea(pixels)}
        />
      </div>
      <label className="field">
        <span>{t('app.wizard.zoom')}</span>
        <input
          type="range"
          min={1}
          max={3}
          step={0.05}
          value={zoom}
          onChange={(e) => setZoom(Number(e.target.value))}
        />
      </label>
      <div className="actions">
        <button type="button" className="button secondary" onClick={onCancel}>
          {t('app.wizard.cancelCrop')}
        </button>
        <button
          type="button"
          className="button"
          disabled={!area || busy}
          onClick={() => {
            if (!area) return;
            setBusy(true);
            void cropToJpeg(url, area).then(onDone, () => setBusy(false));
          }}
        >
          {t('app.wizard.confirmCrop')}
        </button>
      </div>
    </div>
  );
}
