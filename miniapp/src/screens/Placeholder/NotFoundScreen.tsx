import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyState } from '../../components/States.tsx';

export default function NotFoundScreen() {
  const { t } = useTranslation();
  return (
    <EmptyState title={t('app.notFound.title')}>
      <Link to="/" className="button">
        {t('app.nav.home')}
      </Link>
    </EmptyState>
  );
}
