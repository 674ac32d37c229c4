import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { premiumQueries } from '../../api/queries/premium.ts';
import { useResource } from '../../api/useResource.ts';
import { ErrorState, Loading } from '../../components/States.tsx';
import { errorText } from '../../lib/errorText.ts';
import { PlanList } from '../Premium/PlanList.tsx';

/** The plan cards under the pitch; a card opens that plan's details on /subscription. */
function MenuPlans() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [plans] = useResource(premiumQueries.plans);
  if (plans.state === 'loading') return <Loading label={t('app.premium.loadingPlans')} />;
  // No cards to show: the plans screen says why and offers a retry.
  if (plans.state === 'error' || plans.data.plans.length === 0) {
    return (
      <Link to="/subscription" className="button block">
        {t('app.premium.seePlans')}
      </Link>
    );
  }
  return (
    <>
      <PlanList plans={plans.data.plans} onChoose={(plan) => void navigate('/subscription', { state: { plan: plan.id } })} />
      {/* Spec section 2: the test link to the outcome page, only beside the built-in test checkout (never on a live site). */}
      {plans.data.test_provider && (
        <Link to="/successtrig" className="test-link">
          {t('app.premium.testOutcome')}
        </Link>
      )}
    </>
  );
}

/** The menu's subscription part (spec section 2): the renewal date when active, otherwise the plan cards. */
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
            <MenuPlans />
          </>
        ))}
    </section>
  );
}
