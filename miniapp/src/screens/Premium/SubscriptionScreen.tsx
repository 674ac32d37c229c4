import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import type { Plan } from '@contract/plans.ts';
import { usePayment, usePlans } from '../../api/queries/premium.ts';
import { PlanList, usePlanCost, usePlanTitle } from '../../components/PlanList.tsx';
import { EmptyState, ErrorLine, QueryView } from '../../components/States.tsx';
import { errorText } from '../../lib/errorText.ts';
import { platform } from '../../platform/index.ts';

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
  const plans = usePlans();
  const payment = usePayment();
  const [chosen, setChosen] = useState<Plan | null>(null);
  // Until the outcome is known (Telegram's sheet) or the payment page opens (the web).
  const processing = payment.isPending || payment.isSuccess;

  // A plan card tapped in the menu opens here on that plan's details.
  const wanted = (useLocation().state as { plan?: unknown } | null)?.plan;
  const loaded = plans.data?.plans ?? null;
  useEffect(() => {
    const plan = loaded?.find((p) => p.id === wanted);
    // eslint-disable-next-line react-hooks/set-state-in-effect -- chosen once, when the plans arrive
    if (plan) setChosen(plan);
  }, [loaded, wanted]);

  function buy(plan: Plan) {
    payment.mutate(plan, {
      onSuccess: (outcome) => {
        if (outcome === 'paid') {
          platform().haptic('success');
          void navigate('/confirm');
        } else if (outcome === 'failed' || outcome === 'cancelled') {
          platform().haptic('error');
          void navigate('/fail');
        }
      },
    });
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
      {!chosen && (
        <QueryView
          query={plans}
          failedKey="app.errors.plansLoad"
          loadingLabel={t('app.premium.loadingPlans')}
          isEmpty={(list) => list.plans.length === 0}
          empty={<EmptyState title={t('app.premium.noPlans')} />}
        >
          {(list) => <PlanList plans={list.plans} onChoose={setChosen} />}
        </QueryView>
      )}
      {chosen && (
        <section className="card plan-details" aria-labelledby="plan-title">
          <h2 id="plan-title">{title(chosen)}</h2>
          <p className="plan-price big">{cost(chosen)}</p>
          <p className="muted">{t('app.premium.periodDays', { count: chosen.interval })}</p>
          <ErrorLine message={payment.error ? errorText(t, payment.error, 'app.errors.paymentError') : null} />
          <div className="actions">
            <button type="button" className="button secondary" disabled={processing} onClick={() => setChosen(null)}>
              {t('app.common.back')}
            </button>
            <button type="button" className="button" disabled={processing} onClick={() => buy(chosen)}>
              {processing ? t('app.premium.processing') : t('app.premium.buyNow')}
            </button>
          </div>
        </section>
      )}
    </div>
  );
}
