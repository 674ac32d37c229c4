import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isPaymentNotFound, usePaymentStatus } from '../../api/queries/premium.ts';
import { ErrorState, Loading } from '../../components/States.tsx';
import { formatDate } from './formatDate.ts';
import './Premium.css';

type Shown = 'paid' | 'pending' | 'failed' | 'notFound';

const icons: Record<Shown, string> = { paid: '✓', pending: '…', failed: '!', notFound: '?' };

/** One outcome: icon, heading, text, and the ways on (a plan to choose again when it did not go through). */
function Outcome({ shown, text }: { shown: Shown; text: string }) {
  const { t } = useTranslation();
  const title = {
    paid: t('app.result.successTitle'),
    pending: t('app.result.pendingTitle'),
    failed: t('app.result.failureTitle'),
    notFound: t('app.result.notFoundTitle'),
  }[shown];
  return (
    <div className={`card result ${shown}`} data-outcome={shown}>
      <div className="result-icon" aria-hidden="true">
        {icons[shown]}
      </div>
      <h1>{title}</h1>
      <p className="muted">{text}</p>
      {shown === 'pending' && <span className="spinner" aria-hidden="true" />}
      <div className="actions">
        {(shown === 'failed' || shown === 'notFound') && (
          <Link to="/subscription" className="button large block">
            {t('app.result.choosePlan')}
          </Link>
        )}
        <Link
          to="/menu"
          className={shown === 'paid' || shown === 'pending' ? 'button large block' : 'button secondary large block'}
        >
          {t('app.result.backToMenu')}
        </Link>
      </div>
    </div>
  );
}

/**
 * What really became of a payment, as the server tells it (never what the address claims): paid, still
 * pending (asked again until it settles), failed, or not found (unknown, or someone else's).
 */
export function PaymentStatusCard({ paymentId }: { paymentId: number | null }) {
  const { t, i18n } = useTranslation();
  const status = usePaymentStatus(paymentId);
  if (paymentId === null || (status.isError && isPaymentNotFound(status.error))) {
    return <Outcome shown="notFound" text={t('app.result.notFoundText')} />;
  }
  if (status.data) {
    const { data } = status;
    if (data.status === 'paid') {
      const text = data.end_date
        ? t('app.result.paidUntil', { date: formatDate(data.end_date, i18n.language) })
        : t('app.result.successText');
      return <Outcome shown="paid" text={text} />;
    }
    if (data.status === 'pending') return <Outcome shown="pending" text={t('app.result.pendingText')} />;
    return <Outcome shown="failed" text={t('app.result.failureText')} />;
  }
  if (status.isError && !status.isFetching) {
    return <ErrorState message={t('app.result.checkFailed')} onRetry={() => void status.refetch()} />;
  }
  return <Loading label={t('app.result.checking')} />;
}
