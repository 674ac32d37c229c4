import { useTranslation } from 'react-i18next';
import { useAdminVerifications } from '../../api/queries/admin.ts';
import { EmptyState, QueryView } from '../../components/States.tsx';
import { ActionBar } from './ActionBar.tsx';
import { AdminImage } from './AdminImage.tsx';
import { PersonCard, score } from './PersonCard.tsx';

/** Selfie checks the model was unsure of: the selfie beside the profile's photos, with the model's scores. */
export function VerificationsTab() {
  const { t } = useTranslation();
  const query = useAdminVerifications();
  return (
    <QueryView
      query={query}
      failedKey="app.admin.loadFailed"
      isEmpty={(items) => items.length === 0}
      empty={<EmptyState title={t('app.admin.verifications.empty')} />}
    >
      {(items) => (
        <ul className="admin-list">
          {items.map((item) => {
            const resolve = `/api/admin/verifications/${item.id}/resolve`;
            const pose =
              item.pose_ok === null
                ? t('app.admin.verifications.unknown')
                : t(item.pose_ok ? 'app.admin.verifications.poseOk' : 'app.admin.verifications.poseNo');
            return (
              <li key={item.id} className="card admin-item" data-verification={item.id}>
                <p className="admin-meta">
                  #{item.id} · {new Date(item.created_at).toLocaleString()}
                </p>
                <p className="muted small">
                  {t('app.admin.verifications.scores', {
                    similarity: score(item.similarity),
                    pose,
                    faces: item.faces ?? t('app.admin.verifications.unknown'),
                  })}
                </p>
                <div className="admin-selfie">
                  <h3>{t('app.admin.verifications.selfie')}</h3>
                  {item.selfie_url ? (
                    <AdminImage path={item.selfie_url} alt={t('app.admin.verifications.selfie')} />
                  ) : (
                    <p className="muted">{t('app.admin.verifications.selfieGone')}</p>
                  )}
                </div>
                <h3>{t('app.admin.verifications.photos')}</h3>
                <PersonCard person={item.person} />
                <ActionBar
                  withReason={false}
                  actions={[
                    {
                      label: t('app.admin.verifications.approve'),
                      doneText: t('app.admin.verifications.approved'),
                      path: resolve,
                      body: { action: 'approve' },
                    },
                    {
                      label: t('app.admin.verifications.reject'),
                      doneText: t('app.admin.verifications.rejected'),
                      path: resolve,
                      body: { action: 'reject' },
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
