import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyState } from '../../components/States.tsx';

export type PlaceholderArea = 'search' | 'createProfile' | 'training' | 'matches' | 'likes' | 'chats' | 'profile';

/** Screens of later issues: an honest empty state until their API exists. */
export default function PlaceholderScreen({ area }: { area: PlaceholderArea }) {
  const { t } = useTranslation();
  return (
    <EmptyState title={t(`app.placeholder.${area}.title`)}>
      <p>{t(`app.placeholder.${area}.text`)}</p>
      <Link to="/Menu" className="button secondary">
        {t('app.nav.menu')}
      </Link>
    </EmptyState>
  );
}
