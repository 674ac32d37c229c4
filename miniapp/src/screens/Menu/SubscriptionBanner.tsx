import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { usePlans, useSubscription } from '../../api/queries/premium.ts';
import { PlanList } from '../../components/PlanList.tsx';
import { Loading, QueryView } from '../../components/States.tsx';

/** The plan cards under the pitch; a card opens that plan's details on /subscription. */
function MenuPlans() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data, isPending } = usePlans();
  if (isPending) return <Loading label={t('app.premium.loadingPlans')} />;
  // No cards to show (none, or they did not load): the plans screen says why and offers a retry.
  if (!data?.plans.length) {
    return (
      <Link to="/subscription" className="button block">
        {t('app.premium.seePlans')}
      </Link>
    );
  }
  return (
    <>
      <PlanList plans={data.plans} onChoose={(plan) => void navigate('/subscription', { state: { plan: plan.id } })} />
      {/* Spec section 2: the test link to the outcome page, only beside the built-in test checkout (never on a live site). */}
      {data.test_provider && (
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
  const subscription = useSubscription();
  return (
    <section className="card premium" aria-labelledby="premium-title">
      <h2 id="premium-title">{t('app.premium.title')}</h2>
      <QueryView
        query={subscription}
        failedKey="app.errors.subscriptionCheck"
        afterError={
          <Link to="/subscription" className="button block">
            {t('app.premium.seePlans')}
          </Link>
        }
      >
        {(current) =>
          current.isActive ? (
            <p className="premium-active">
              {current.end_date
                ? t('app.premium.activeUntil', {
                    date: new Date(current.end_date).toLocaleDateString(i18n.language, { dateStyle: 'long' }),
                  })
                : t('app.premium.active')}
            </p>
          ) : (
            <>
              <p className="muted">{t('app.premium.pitch')}</p>
              <MenuPlans />
            </>
          )
        }
      </QueryView>
    </section>
  );
}
