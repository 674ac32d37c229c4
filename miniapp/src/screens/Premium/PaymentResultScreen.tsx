import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { rowId } from '@contract/ids.ts';
import { PaymentStatusCard } from './PaymentStatusCard.tsx';

/** The payment named in the address (`?payment=`), when it is a plausible id at all. */
function usePaymentParam(): number | null {
  const [params] = useSearchParams();
  const parsed = rowId('payment').safeParse(params.get('payment') ?? '');
  return parsed.success ? parsed.data : null;
}

/**
 * `/confirm` and `/fail` (spec section 2): where the payment page returns to. Both ask the server about the
 * payment the address names, so nobody is told "paid" for opening a link. `/fail` without a payment (the
 * Telegram sheet closed unpaid) says it did not go through; `/successtrig` and `/failtrig` are the menu's
 * test links to the pages themselves.
 */
export default function PaymentResultScreen({ outcome, check = false }: { outcome: 'success' | 'failure'; check?: boolean }) {
  const { t } = useTranslation();
  const paymentId = usePaymentParam();
  if (check && (outcome === 'success' || paymentId !== null)) return <PaymentStatusCard paymentId={paymentId} />;
  const ok = outcome === 'success';
  return (
    <div className={ok ? 'card result success' : 'card result failure'}>
      <div className="result-icon" aria-hidden="true">
        {ok ? '✓' : '!'}
      </div>
      <h1>{ok ? t('app.result.successTitle') : t('app.result.failureTitle')}</h1>
      <p className="muted">{ok ? t('app.result.successText') : t('app.result.failureText')}</p>
      <Link to="/menu" className="button large block">
        {t('app.result.backToMenu')}
      </Link>
    </div>
  );
}
