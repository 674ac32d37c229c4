import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { rowId } from '@contract/ids.ts';
import { Loading } from '../../components/States.tsx';
import { useSession } from '../../session/SessionProvider.tsx';
import { PaymentStatusCard } from './PaymentStatusCard.tsx';
import './Premium.css';

/** The payment named in the address (`?payment=`), when it is a plausible id at all. */
function usePaymentParam(): number | null {
  const [params] = useSearchParams();
  const parsed = rowId('payment').safeParse(params.get('payment') ?? '');
  return parsed.success ? parsed.data : null;
}

/**
 * `/successtrig`: confirms a payment only when it is the caller's own and paid (`?payment=`, asked of the
 * server like /confirm); anyone else, or a member without a payment named, is told there is nothing to
 * confirm, with the way back (the menu, or home for a visitor). Never a congratulation for opening a link.
 */
export function SuccessCheckScreen() {
  const { t } = useTranslation();
  const { session } = useSession();
  const paymentId = usePaymentParam();
  if (session.status === 'loading') return <Loading />;
  const member = session.status === 'signedIn';
  if (member && paymentId !== null) return <PaymentStatusCard paymentId={paymentId} />;
  return (
    <div className="card result nothing" data-outcome="nothing">
      <div className="result-icon" aria-hidden="true">
        ?
      </div>
      <h1>{t('app.result.nothingTitle')}</h1>
      <p className="muted">{t('app.result.nothingText')}</p>
      <div className="actions">
        {member ? (
          <Link to="/menu" className="button large block">
            {t('app.result.backToMenu')}
          </Link>
        ) : (
          <Link to="/" className="button large block">
            {t('app.result.backHome')}
          </Link>
        )}
      </div>
    </div>
  );
}

/**
 * `/confirm` and `/fail` (spec section 2): where the payment page returns to. Both ask the server about the
 * payment the address names, so nobody is told "paid" for opening a link. `/fail` without a payment (the
 * Telegram sheet closed unpaid) says it did not go through; `/failtrig` shows the failure page itself.
 */
export default function PaymentResultScreen({
  outcome,
  check = false,
}: {
  outcome: 'success' | 'failure';
  check?: boolean;
}) {
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
