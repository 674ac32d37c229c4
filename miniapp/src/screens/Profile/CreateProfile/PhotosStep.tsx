import type { Dispatch } from 'react';
import { useTranslation } from 'react-i18next';
import { maxPhotos } from '@contract/profiles.ts';
import { AddPhotoButton } from '../AddPhotoButton.tsx';
import { PhotoCropper } from '../PhotoCropper.tsx';
import { TelegramPhotoOffer } from './TelegramPhotoOffer.tsx';
import type { WizardAction, WizardState } from './wizardState.ts';

/** Step 3: photos, each cropped in the browser before it is added (at most six). */
export function PhotosStep({ state, dispatch }: { state: WizardState; dispatch: Dispatch<WizardAction> }) {
  const { t } = useTranslation();
  const { cropping, photos } = state;
  return (
    <div className="wizard-step">
      <h2>{t('app.wizard.photosTitle')}</h2>
      {cropping ? (
        <PhotoCropper
          url={cropping}
          onCancel={() => {
            URL.revokeObjectURL(cropping);
            dispatch({ type: 'cropEnded', photo: null });
          }}
          onDone={(blob) => {
            URL.revokeObjectURL(cropping);
            dispatch({ type: 'cropEnded', photo: { blob, url: URL.createObjectURL(blob) } });
          }}
        />
      ) : (
        <>
          <p className="muted">{t('app.wizard.photosText', { max: maxPhotos })}</p>
          <ul className="photo-previews">
            {photos.map((p, i) => (
              <li key={p.url}>
                <img src={p.url} alt={t('app.wizard.photoN', { n: i + 1 })} width={96} height={128} />
                <button
                  type="button"
                  className="photo-remove"
                  onClick={() => {
                    URL.revokeObjectURL(p.url);
                    dispatch({ type: 'photoRemoved', photo: p });
                  }}
                  aria-label={t('app.wizard.removePhoto', { n: i + 1 })}
                >
                  ×
                </button>
              </li>
            ))}
          </ul>
          {photos.length === 0 && <TelegramPhotoOffer onPicked={(url) => dispatch({ type: 'cropStarted', url })} />}
          {photos.length < maxPhotos && (
            <AddPhotoButton
              onPicked={(url) => dispatch({ type: 'cropStarted', url })}
              onError={(message) => dispatch({ type: 'failed', message })}
            />
          )}
        </>
      )}
    </div>
  );
}
