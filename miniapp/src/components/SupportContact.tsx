import { useTranslation } from 'react-i18next';
import { usePublicConfig } from '../api/queries/config.ts';
import './SupportContact.css';

/**
 * "Still stuck? Write to support" with the operator's contacts (SUPPORT_EMAIL, SUPPORT_TELEGRAM). Nothing
 * at all when neither is set: a line that leads nowhere is worse than none.
 */
export function SupportContact() {
  const { t } = useTranslation();
  const config = usePublicConfig();
  const email = config?.support_email;
  const telegram = config?.support_telegram?.replace(/^@/, '');
  if (!email && !telegram) return null;
  return (
    <p className="form-aside support-contact">
      {t('app.forgot.support')} {email && <a href={`mailto:${email}`}>{email}</a>}
      {email && telegram && ' · '}
      {telegram && (
        <a href={`https://t.me/${telegram}`} target="_blank" rel="noreferrer">
          @{telegram}
        </a>
      )}
    </p>
  );
}
