import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { premiumQueries } from '../../api/queries/premium.ts';
import { useResource } from '../../api/useResource.ts';
import { ErrorState, Loading } from '../../components/States.tsx';
import { errorText } from '../../lib/errorText.ts';

/** The menu's subscription part: renewal date when active, otherwise a way to the plans. */
export function SubscriptionBanner() {
  const { t, i18n } = useTranslation();
  const [subscription, reload] = useResource(premiumQueries.subscription);
  return (
    <section className="card premium" aria-labelledby="premium-title">
      <h2 id="premium-title">{t('app.premium.title')}</h2>
      {subscription.state === 'loading' && <Loading />}
      {subscription.state === 'error' && (
        <>
          <ErrorState message={errorText(t, subscription.error, 'app.errors.subscriptionCheck')} onRetry={reload} />
          <Link to="/subscription" className="button block">
            {t('app.premium.seePlans')}
          </Link>
        </>
      )}
      {subscription.state === 'ready' &&
        (subscription.data.isActive ? (
          <p className="premium-active">
            {subscription.data.end_date
              ? t('app.premium.activeUntil', {
                  date: new Date(subscription.data.end_date).toLocaleDateString(i18n.language, { dateStyle: 'long' }),
                })
              : t('app.premium.active')}
          </p>
        ) : (
          <>
            <p className="muted">{t('app.premium.pitch')}</p>
            <Link to="/subscription" className="button block">
              {t('app.premium.seePlans')}
            </Link>
          </>
        ))}
    </section>
  );
}
