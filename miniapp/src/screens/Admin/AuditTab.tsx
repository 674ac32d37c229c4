import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminFileUrl, useAdminAudit } from '../../api/queries/admin.ts';
import { EmptyState, ErrorLine, QueryView } from '../../components/States.tsx';
import { actionName } from './actionName.ts';

/** The audit log, newest first, a page at a time; the whole of it as CSV. */
export function AuditTab() {
  const { t } = useTranslation();
  const query = useAdminAudit();
  const [exportFailed, setExportFailed] = useState(false);
  const download = async () => {
    setExportFailed(false);
    try {
      const url = await adminFileUrl('/api/admin/audit.csv', new AbortController().signal);
      const link = document.createElement('a');
      link.href = url;
      link.download = 'iskra-audit.csv';
      link.click();
      if (url.startsWith('blob:')) setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch {
      setExportFailed(true);
    }
  };
  return (
    <div>
      <button type="button" className="button small secondary" onClick={() => void download()}>
        {t('app.admin.audit.export')}
      </button>
      {exportFailed && <ErrorLine message={t('app.admin.loadFailed')} />}
      <QueryView
        query={query}
        failedKey="app.admin.loadFailed"
        isEmpty={(data) => data.pages.every((p) => p.entries.length === 0)}
        empty={<EmptyState title={t('app.admin.audit.empty')} />}
      >
        {(data) => (
          <>
            <ol className="admin-audit">
              {data.pages
                .flatMap((p) => p.entries)
                .map((e) => (
                  <li key={e.id} className="card">
                    <p className="admin-meta">{new Date(e.created_at).toLocaleString()}</p>
                    <p>
                      <strong>{t('app.admin.audit.entry', { admin: e.admin, action: actionName(t, e.action) })}</strong>
                      {e.target_user_id !== null && ` · ${t('app.admin.audit.target', { user: e.target_user_id })}`}
                    </p>
                    {e.reason && <p className="muted">{t('app.admin.audit.reason', { reason: e.reason })}</p>}
                  </li>
                ))}
            </ol>
            {query.hasNextPage && (
              <button
                type="button"
                className="button small secondary"
                disabled={query.isFetchingNextPage}
                onClick={() => void query.fetchNextPage()}
              >
                {t('app.admin.audit.more')}
              </button>
            )}
          </>
        )}
      </QueryView>
    </div>
  );
}
