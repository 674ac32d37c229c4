import { useTranslation } from 'react-i18next';

/** "Add a photo": a file button that hands over the chosen file and can pick the same file again. */
export function AddPhotoButton({ onChoose }: { onChoose: (file: File | undefined) => void }) {
  const { t } = useTranslation();
  return (
    <label className="button secondary block file-button">
      {t('app.wizard.addPhoto')}
      <input
        type="file"
        accept="image/*"
        className="visually-hidden"
        onChange={(e) => {
          onChoose(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
    </label>
  );
}
