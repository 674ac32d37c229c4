import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { usePublicConfig } from '../api/queries/config.ts';
import { namesLegalForm } from '../lib/legalName.ts';
import './Footer.css';

/** The landing's footer (spec section 2): support links and legal details from the server's config. */
export function Footer() {
  const { t } = useTranslation();
  // The footer's details arrive after the first paint (the API client is loaded for them then).
  const config = usePublicConfig();
  const telegram = config?.support_telegram?.replace(/^@/, '');
  return (
    // What the page has from the start (the documents, the copyright) comes first: the config's parts arrive
    // after the first paint, and above it they pushed the documents and the copyright down the bottom of a
    // phone's first screen (a layout shift of 0.005-0.013 on `/`); below it they move nothing.
    <footer className="footer">
      <nav aria-label={t('app.footer.label')} className="footer-links">
        <Link to="/offer">{t('app.footer.offer')}</Link>
        <Link to="/privacy-policy">{t('app.footer.privacy')}</Link>
      </nav>
      <p className="legal">{t('app.footer.copyright', { year: new Date().getFullYear() })}</p>
      {(config?.support_email || telegram) && (
        <p className="footer-links">
          {config?.support_email && <a href={`mailto:${config.support_email}`}>{t('app.footer.email')}</a>}
          {telegram && (
            <a href={`https://t.me/${telegram}`} target="_blank" rel="noreferrer">
              {t('app.footer.telegram')}
            </a>
          )}
        </p>
      )}
      {config?.legal_name && (
        <p className="legal">
          {namesLegalForm(config.legal_name)
            ? config.legal_name
            : t('app.footer.entrepreneur', { name: config.legal_name })}
          {config.legal_inn && <> · {t('app.footer.inn', { inn: config.legal_inn })}</>}
          {config.legal_ogrnip && <> · {t('app.footer.ogrnip', { ogrnip: config.legal_ogrnip })}</>}
        </p>
      )}
    </footer>
  );
}
