import { useTranslation } from 'react-i18next';
import { useAdminReports } from '../../api/queries/admin.ts';
import { EmptyState, QueryView } from '../../components/States.tsx';
import { ActionBar } from './ActionBar.tsx';
import { PersonCard } from './PersonCard.tsx';
import { evidenceName } from './actionName.ts';

const reasonKeys = ['fake', 'spam', 'offensive', 'underage', 'other'] as const;

/** Open reports, strongest evidence first: the reported person beside the report and their chat. */
export function ReportsTab() {
  const { t } = useTranslation();
  const query = useAdminReports();
  return (
    <QueryView
      query={query}
      failedKey="app.admin.loadFailed"
      isEmpty={(reports) => reports.length === 0}
      empty={<EmptyState title={t('app.admin.reports.empty')} />}
    >
      {(reports) => (
        <ul className="admin-list">
          {reports.map((report) => {
            const reason = reasonKeys.find((r) => r === report.reason) ?? 'other';
            const resolve = `/api/admin/reports/${report.id}/resolve`;
            return (
              <li key={report.id} className="card admin-item" data-report={report.id}>
                <p className="admin-meta">
                  #{report.id} · {new Date(report.created_at).toLocaleString()}
                </p>
                <p>
                  <strong>{t('app.admin.reports.reason', { reason: t(`app.admin.reports.reasons.${reason}`) })}</strong>
                </p>
                {report.comment && <blockquote className="admin-comment">{report.comment}</blockquote>}
                <p className="muted">{t('app.admin.reports.from', { name: report.reporter.name })}</p>
                <p className="muted small">
                  {t('app.admin.reports.evidence', {
                    evidence: evidenceName(t, report.evidence),
                    weight: report.weight,
                    score: report.score,
                    reporters: report.reporters,
                  })}
                </p>
                <PersonCard person={report.reported} />
                <h3>{t('app.admin.reports.messages')}</h3>
                {report.messages.length === 0 ? (
                  <p className="muted">{t('app.admin.reports.noMessages')}</p>
                ) : (
                  <ol className="admin-messages">
                    {report.messages.map((m, i) => (
                      <li key={i} className={m.from_profile_id === report.reported.profile_id ? 'theirs' : 'reporter'}>
                        <span>{m.content}</span>
                      </li>
                    ))}
                  </ol>
                )}
                <ActionBar
                  actions={[
                    {
                      label: t('app.admin.reports.dismiss'),
                      doneText: t('app.admin.reports.dismissed'),
                      path: resolve,
                      body: { action: 'dismiss' },
                    },
                    ...(report.reported.held
                      ? []
                      : [
                          {
                            label: t('app.admin.reports.hold'),
                            doneText: t('app.admin.reports.heldDone'),
                            path: resolve,
                            body: { action: 'hold' },
                          },
                        ]),
                    {
                      label: t('app.admin.reports.ban'),
                      doneText: t('app.admin.reports.bannedDone'),
                      path: resolve,
                      body: { action: 'ban' },
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
