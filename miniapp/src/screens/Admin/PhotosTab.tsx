import { useTranslation } from 'react-i18next';
import { useAdminPhotos } from '../../api/queries/admin.ts';
import { EmptyState, QueryView } from '../../components/States.tsx';
import { ActionBar } from './ActionBar.tsx';
import { score } from './PersonCard.tsx';

/** Photos the upload screen held, highest score first: show them, or remove them with their files. */
export function PhotosTab() {
  const { t } = useTranslation();
  const query = useAdminPhotos();
  return (
    <QueryView
      query={query}
      failedKey="app.admin.loadFailed"
      isEmpty={(photos) => photos.length === 0}
      empty={<EmptyState title={t('app.admin.photos.empty')} />}
    >
      {(photos) => (
        <ul className="admin-grid">
          {photos.map((photo) => {
            const resolve = `/api/admin/photos/${photo.id}/resolve`;
            return (
              <li key={photo.id} className="card admin-item" data-photo={photo.id}>
                <img src={photo.url} alt="" className="admin-held-photo" loading="lazy" />
                <p>
                  <strong>{photo.owner.name}</strong> ·{' '}
                  {t('app.admin.photos.score', { score: score(photo.screen_score) })}
                </p>
                <ActionBar
                  withReason={false}
                  actions={[
                    {
                      label: t('app.admin.photos.approve'),
                      doneText: t('app.admin.photos.approved'),
                      path: resolve,
                      body: { action: 'approve' },
                    },
                    {
                      label: t('app.admin.photos.remove'),
                      doneText: t('app.admin.photos.removed'),
                      path: resolve,
                      body: { action: 'remove' },
                      danger: true,
                    },
                  ]}
                />
              </li>
            );
          })}
        </ul>
      )}
    </QueryView>
  );
}
