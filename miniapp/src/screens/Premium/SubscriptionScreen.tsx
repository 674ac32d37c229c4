import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import type { Plan } from '../../../../server/contract/plans.ts';
import { premiumQueries } from '../../api/queries/premium.ts';
import { useResource } from '../../api/useResource.ts';
import { EmptyState, ErrorLine, ErrorState, Loading } from '../../components/States.tsx';
import { errorText } from '../../lib/errorText.ts';
import { platform } from '../../platform/index.ts';
import { PlanList, usePlanCost, usePlanTitle } from './PlanList.tsx';

const benefits = ['likes', 'messages', 'whoLiked', 'support', 'boost'] as const;

/**
 * `/subscription` (spec sections 2, 4): the plans from `/api/plans`, a plan's details with Back and
 * Buy Now, "Processing..." while the payment is created, then the payment page or Telegram's invoice.
 */
export default function SubscriptionScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const title = usePlanTitle();
  const cost = usePlanCost();
  const [plans, reload] = useResource(premiumQueries.plans);
  const [chosen, setChosen] = useState<Plan | null>(null);
  const [processing, setProcessing] = useState(false);
  const [error, setError] = useState<string | null>(null);

  // A plan card tapped in the menu opens here on that plan's details.
  const wanted = (useLocation().state as { plan?: unknown } | null)?.plan;
  const loaded = plans.state === 'ready' ? plans.data.plans : null;
  useEffect(() => {
    const plan = loaded?.find((p) => p.id === wanted);
    // eslint-disable-next-line react-hooks/set-state-in-effect -- chosen once, when the plans arrive
    if (plan) setChosen(plan);
  }, [loaded, wanted]);

  async function buy(plan: Plan) {
    setProcessing(true);
    setError(null);
    try {
      const { payment_url, invoice_url } = await premiumQueries.pay(plan.price, plan.interval);
      const url = invoice_url ?? payment_url;
      if (!url) throw new Error('no payment url');
      const outcome = await platform().openPayment(url);
      if (outcome === 'paid') {
        platform().haptic('success');
        void navigate('/confirm');
      } else if (outcome === 'failed' || outcome === 'cancelled') {
        platform().haptic('error');
        void navigate('/fail');
      }
    } catch (failure) {
      setError(errorText(t, failure, 'app.errors.paymentError'));
      setProcessing(false);
    }
  }

  return (
    <div className="subscription">
      <header className="premium-hero">
        <h1>{t('app.premium.heading')}</h1>
        <ul className="benefits">
          {benefits.map((b) => (
            <li key={b}>{t(`app.premium.benefits.${b}`)}</li>
          ))}
        </ul>
      </header>
      {plans.state === 'loading' && <Loading label={t('app.premium.loadingPlans')} />}
      {plans.state === 'error' && <ErrorState message={errorText(t, plans.error, 'app.errors.plansLoad')} onRetry={reload} />}
      {plans.state === 'ready' && plans.data.plans.length === 0 && <EmptyState title={t('app.premium.noPlans')} />}
      {plans.state === 'ready' && plans.data.plans.length > 0 && !chosen && (
        <PlanList plans={plans.data.plans} onChoose={setChosen} />
      )}
      {chosen && (
        <section className="card plan-details" aria-labelledby="plan-title">
          <h2 id="plan-title">{title(chosen)}</h2>
          <p className="plan-price big">{cost(chosen)}</p>
          <p className="muted">{t('app.premium.periodDays', { count: chosen.interval })}</p>
          <ErrorLine message={error} />
          <div className="actions">
            <button type="button" className="button secondary" disabled={processing} onClick={() => setChosen(null)}>
              {t('app.common.back')}
            </button>
            <button type="button" className="button" disabled={processing} onClick={() => void buy(chosen)}>
              {processing ? t('app.premium.processing') : t('app.premium.buyNow')}
            </button>
          </div>
        </section>
      )}
    </div>
  );
}
