import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useIsAdmin } from '../../api/queries/adminMe.ts';
import { usePublicConfig } from '../../api/queries/config.ts';
import { InstallAppRow } from './InstallAppRow.tsx';

/** The menu's links: the moderation console (admins only), training, support (when the operator gave it), the legal documents, sign in or out. */
export function MenuLinks({ signedIn }: { signedIn: boolean }) {
  const { t } = useTranslation();
  const config = usePublicConfig();
  const supportTelegram = config?.support_telegram?.replace(/^@/, '');
  const isAdmin = useIsAdmin(signedIn);
  return (
    <nav className="card links" aria-label={t('app.menu.more')}>
      {signedIn && (
        <Link to="/account" className="row link-row">
          {t('app.menu.account')}
        </Link>
      )}
      {isAdmin && (
        <Link to="/admin" className="row link-row">
          {t('app.menu.moderation')}
        </Link>
      )}
      <Link to="/training" className="row link-row">
        {t('app.menu.training')}
      </Link>
      <InstallAppRow />
      {config?.support_email && (
        <a href={`mailto:${config.support_email}`} className="row link-row">
          {t('app.menu.contactEmail')}
        </a>
      )}
      {supportTelegram && (
        <a href={`https://t.me/${supportTelegram}`} target="_blank" rel="noreferrer" className="row link-row">
          {t('app.menu.contactTelegram')}
        </a>
      )}
      <Link to="/offer" className="row link-row">
        {t('app.footer.offer')}
      </Link>
      <Link to="/privacy-policy" className="row link-row">
        {t('app.footer.privacy')}
      </Link>
      {signedIn ? (
        <Link to="/logout" className="row link-row danger">
          {t('app.nav.logout')}
        </Link>
      ) : (
        <Link to="/login" className="row link-row">
          {t('app.nav.login')}
        </Link>
      )}
    </nav>
  );
}
