import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import type { Plan, SubscriptionResponse } from '@contract/plans.ts';
import { usePayment, usePlans, useSubscription } from '../../api/queries/premium.ts';
import { PlanList, usePlanCost, usePlanTitle } from '../../components/PlanList.tsx';
import { EmptyState, ErrorLine, QueryView } from '../../components/States.tsx';
import { errorText } from '../../lib/errorText.ts';
import { platform } from '../../platform/index.ts';
import { PaymentStatusCard } from './PaymentStatusCard.tsx';
import { daysUntil, formatDate } from './formatDate.ts';
import './Premium.css';

const benefits = ['likes', 'messages', 'whoLiked', 'support', 'boost'] as const;

function Benefits({ included = false }: { included?: boolean }) {
  const { t } = useTranslation();
  return (
    <ul className={included ? 'benefits included' : 'benefits'}>
      {benefits.map((b) => (
        <li key={b}>{t(`app.premium.benefits.${b}`)}</li>
      ))}
    </ul>
  );
}

/** An active subscription: until when, how long is left, what it includes; nothing to buy. */
function ActivePlan({ endDate }: { endDate: string | null }) {
  const { t, i18n } = useTranslation();
  return (
    <section className="card premium-status" aria-labelledby="premium-status-title">
      <div className="premium-status-mark" aria-hidden="true">
        ★
      </div>
      <h1 id="premium-status-title">{t('app.premium.activeTitle')}</h1>
      {endDate && (
        <>
          <p className="premium-until">{t('app.premium.until', { date: formatDate(endDate, i18n.language) })}</p>
          <p className="muted">{t('app.premium.daysLeft', { count: daysUntil(endDate) })}</p>
        </>
      )}
      <h2>{t('app.premium.includes')}</h2>
      <Benefits included />
      <Link to="/menu" className="button secondary block">
        {t('app.result.backToMenu')}
      </Link>
    </section>
  );
}

/** A plan chosen: its title, price and length, with Back and Buy Now (Renew Now after a lapse). */
function PlanDetails({
  plan,
  renewal,
  processing,
  error,
  onBack,
  onBuy,
}: {
  plan: Plan;
  renewal: boolean;
  processing: boolean;
  error: string | null;
  onBack: () => void;
  onBuy: () => void;
}) {
  const { t } = useTranslation();
  const title = usePlanTitle();
  const cost = usePlanCost();
  return (
    <section className="card plan-details" aria-labelledby="plan-title">
      <h2 id="plan-title">{title(plan)}</h2>
      <p className="plan-price big">{cost(plan)}</p>
      <p className="muted">{t('app.premium.periodDays', { count: plan.interval })}</p>
      <ErrorLine message={error} />
      <div className="actions">
        <button type="button" className="button secondary" disabled={processing} onClick={onBack}>
          {t('app.common.back')}
        </button>
        <button type="button" className="button" disabled={processing} onClick={onBuy}>
          {processing ? t('app.premium.processing') : renewal ? t('app.premium.renewNow') : t('app.premium.buyNow')}
        </button>
      </div>
    </section>
  );
}

/**
 * The plans (for someone without premium, or whose premium lapsed: then as a renewal), a plan's details
 * with Back and Buy Now, "Processing..." while the payment is created, then the payment page or
 * Telegram's invoice. A paid invoice stays here: the payment is confirmed with the server, and the
 * subscription read again shows it active.
 */
function Offer({ lapsedOn }: { lapsedOn: string | null }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const plans = usePlans();
  const payment = usePayment();
  const [chosen, setChosen] = useState<Plan | null>(null);
  const [settling, setSettling] = useState<number | null>(null);
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
      onSuccess: ({ outcome, paymentId }) => {
        if (outcome === 'paid') {
          platform().haptic('success');
          setSettling(paymentId);
        } else if (outcome === 'failed' || outcome === 'cancelled') {
          platform().haptic('error');
          void navigate('/fail');
        }
      },
    });
  }

  // Telegram said paid; the bot credits it when Telegram tells it, so the server is asked until it has.
  if (settling !== null) {
    return (
      <>
        <p className="muted center">{t('app.premium.confirming')}</p>
        <PaymentStatusCard paymentId={settling} />
      </>
    );
  }

  return (
    <>
      <header className="premium-hero">
        <h1>{lapsedOn ? t('app.premium.lapsedTitle') : t('app.premium.heading')}</h1>
        {lapsedOn && (
          <p className="muted">{t('app.premium.lapsedText', { date: formatDate(lapsedOn, i18n.language) })}</p>
        )}
        <Benefits />
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
        <PlanDetails
          plan={chosen}
          renewal={Boolean(lapsedOn)}
          processing={processing}
          error={payment.error ? errorText(t, payment.error, 'app.errors.paymentError') : null}
          onBack={() => setChosen(null)}
          onBuy={() => buy(chosen)}
        />
      )}
    </>
  );
}

/**
 * `/subscription` (spec sections 2, 4, 7): asks `GET /api/subscription` first. Active: the end date and
 * what it includes; otherwise the plans (a renewal when it lapsed), the best value marked. When the check
 * fails: "Error checking subscription" with Retry, and no plans (nobody should buy twice by mistake).
 */
export default function SubscriptionScreen() {
  const subscription = useSubscription();
  return (
    <div className="subscription">
      <QueryView query={subscription} failedKey="app.errors.subscriptionCheck">
        {(current: SubscriptionResponse) =>
          current.isActive ? <ActivePlan endDate={current.end_date} /> : <Offer lapsedOn={current.end_date} />
        }
      </QueryView>
    </div>
  );
}
