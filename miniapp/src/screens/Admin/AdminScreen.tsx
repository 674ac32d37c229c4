import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useAdminMe } from '../../api/queries/adminMe.ts';
import { queryKeys } from '../../api/queries/keys.ts';
import { EmptyState, ErrorState, Loading } from '../../components/States.tsx';
import { loadLazyTexts } from '../../i18n.ts';
import { useSession } from '../../session/SessionProvider.tsx';
import { AuditTab } from './AuditTab.tsx';
import { PeopleTab } from './PeopleTab.tsx';
import { PhotosTab } from './PhotosTab.tsx';
import { ReportsTab } from './ReportsTab.tsx';
import { VerificationsTab } from './VerificationsTab.tsx';
import './Admin.css';

// The chart library comes with the stats tab only: a moderator who never opens it never loads it.
const StatsTab = lazy(() => import('./StatsTab.tsx'));

const tabs = ['reports', 'verifications', 'photos', 'people', 'audit', 'stats'] as const;
type Tab = (typeof tabs)[number];

/**
 * `/admin`: the moderation console (issue 40), a lazy chunk of its own, never part of a member's first load.
 * The server decides who is an admin; to anyone else this is the not-found page, as the API is a 404.
 */
export default function AdminScreen() {
  const { t, i18n } = useTranslation();
  // The console's texts are a file of their own (languages.ts lazyAppParts): not in anyone's first load.
  const texts = useQuery({
    queryKey: queryKeys.lazyTexts('admin', i18n.language),
    queryFn: () => loadLazyTexts('admin', i18n.language).then(() => true),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const { session } = useSession();
  const me = useAdminMe(session.status === 'signedIn');
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: Tab = tabs.find((name) => name === requested) ?? 'reports';
  if (texts.isError) return <ErrorState message={t('app.errors.network')} onRetry={() => void texts.refetch()} />;
  // The admin check runs only for a signed-in session: any other settled session (signed out, or its check
  // failed) never starts it, so waiting on it there would spin for ever. Such a visitor sees the not-found page.
  const checking = session.status === 'signedIn' && me.isPending;
  if (session.status === 'loading' || checking || !texts.data) return <Loading />;
  if (me.isError) return <ErrorState message={t('app.errors.network')} onRetry={() => void me.refetch()} />;
  if (me.data !== true) return <EmptyState title={t('app.admin.notAdmin')} />;
  return (
    <div className="admin">
      <h1>{t('app.admin.title')}</h1>
      <div className="admin-tabs" role="tablist" aria-label={t('app.admin.title')}>
        {tabs.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            id={`admin-tab-${name}`}
            aria-selected={tab === name}
            aria-controls="admin-panel"
            className={tab === name ? 'admin-tab selected' : 'admin-tab'}
            onClick={() => setParams({ tab: name }, { replace: true })}
          >
            {t(`app.admin.tabs.${name}`)}
          </button>
        ))}
      </div>
      <section id="admin-panel" role="tabpanel" aria-labelledby={`admin-tab-${tab}`} className="admin-panel">
        {tab === 'reports' && <ReportsTab />}
        {tab === 'verifications' && <VerificationsTab />}
        {tab === 'photos' && <PhotosTab />}
        {tab === 'people' && <PeopleTab />}
        {tab === 'audit' && <AuditTab />}
        {tab === 'stats' && (
          <Suspense fallback={<Loading />}>
            <StatsTab />
          </Suspense>
        )}
      </section>
    </div>
  );
}
