import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** Over a free user's blurred likers: how many liked them, and the way to premium to see who. */
export function PremiumInvite({ count }: { count: number }) {
  const { t } = useTranslation();
  return (
    <div className="premium-invite card">
      <p className="state-title">{t('app.matches.blurredTitle', { count })}</p>
      <p className="muted">{t('app.matches.blurredText')}</p>
      <Link className="button block" to="/subscription">
        {t('app.matches.seeWhoLiked')}
      </Link>
    </div>
  );
}
