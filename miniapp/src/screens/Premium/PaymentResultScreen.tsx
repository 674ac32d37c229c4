import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** `/confirm` and `/fail` (spec section 2): the payment's outcome with a way back to the menu. */
export default function PaymentResultScreen({ outcome }: { outcome: 'success' | 'failure' }) {
  const { t } = useTranslation();
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
