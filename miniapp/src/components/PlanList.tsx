import { useTranslation } from 'react-i18next';
import type { Plan } from '@contract/plans.ts';
import type { TranslationKey } from '../i18n.ts';
import './PlanList.css';

/** The plans the dictionary names, by their length in days. */
const planTitleKeys: ReadonlyMap<number, TranslationKey> = new Map([
  [1, 'app.premium.plans.1'],
  [7, 'app.premium.plans.7'],
  [30, 'app.premium.plans.30'],
  [180, 'app.premium.plans.180'],
  [365, 'app.premium.plans.365'],
]);

/** A plan's title in the app's language (the server's own title for a plan the app does not know). */
export function usePlanTitle() {
  const { t } = useTranslation();
  return (plan: Plan) => {
    const key = planTitleKeys.get(plan.interval);
    return key ? t(key) : plan.title;
  };
}

/** What a plan costs this caller: Stars inside Telegram (the server says so by giving them), else roubles. */
export function usePlanCost() {
  const { t, i18n } = useTranslation();
  return (plan: Plan) =>
    plan.stars
      ? t('app.premium.starsPrice', { count: plan.stars })
      : new Intl.NumberFormat(i18n.language, {
          style: 'currency',
          currency: 'RUB',
          currencyDisplay: 'narrowSymbol',
          maximumFractionDigits: 0,
        }).format(plan.price);
}

/** The plan that gives the most for the money: the largest discount (the longer plan on a tie). */
export function bestValuePlan(plans: readonly Plan[]): Plan | undefined {
  return plans.reduce<Plan | undefined>((best, plan) => {
    const discount = plan.discount ?? 0;
    if (discount === 0) return best;
    const bestDiscount = best?.discount ?? 0;
    return !best || discount > bestDiscount || (discount === bestDiscount && plan.interval > best.interval)
      ? plan
      : best;
  }, undefined);
}

/** The plan cards, as `/subscription` and the menu show them, the best value marked; choosing one is the caller's business. */
export function PlanList({ plans, onChoose }: { plans: Plan[]; onChoose: (plan: Plan) => void }) {
  const { t } = useTranslation();
  const title = usePlanTitle();
  const cost = usePlanCost();
  const best = bestValuePlan(plans);
  return (
    <ul className="plans" aria-label={t('app.premium.choose')}>
      {plans.map((plan) => (
        <li key={plan.id}>
          <button type="button" className={plan === best ? 'plan best' : 'plan'} onClick={() => onChoose(plan)}>
            {plan === best && <span className="plan-flag">{t('app.premium.bestValue')}</span>}
            <span className="plan-title">{title(plan)}</span>
            <span className="plan-price">{cost(plan)}</span>
            {plan.discount ? (
              <span className="badge">{t('app.premium.discount', { percent: plan.discount })}</span>
            ) : null}
          </button>
        </li>
      ))}
    </ul>
  );
}
