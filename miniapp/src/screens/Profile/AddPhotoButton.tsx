import { useTranslation } from 'react-i18next';
import { loadImage } from './cropPhoto.ts';

/**
 * "Add a photo": a file button that hands over an object URL of a photo this browser can draw (for the
 * cropper), or says it cannot open it (HEIC on some browsers); the same file can be picked again.
 */
export function AddPhotoButton({
  onPicked,
  onError,
}: {
  onPicked: (url: string) => void;
  onError: (message: string | null) => void;
}) {
  const { t } = useTranslation();
  async function choose(file: File | undefined) {
    onError(null);
    if (!file) return;
    const url = URL.createObjectURL(file);
    try {
      await loadImage(url);
      onPicked(url);
    } catch {
      URL.revokeObjectURL(url);
      onError(t('app.wizard.unreadable'));
    }
  }
  return (
    <label className="button secondary block file-button">
      {t('app.wizard.addPhoto')}
      <input
        type="file"
        accept="image/*"
        className="visually-hidden"
        onChange={(e) => {
          void choose(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
    </label>
  );
}
