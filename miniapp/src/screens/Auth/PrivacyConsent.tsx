import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { privacyWarningMs } from '../../lib/constants.ts';

/** Registration's consent to the privacy policy (spec section 2), and the warning while it is missing. */
export function PrivacyConsent({
  agreed,
  onAgreed,
  warning,
}: {
  agreed: boolean;
  onAgreed: (agreed: boolean) => void;
  warning: boolean;
}) {
  const { t } = useTranslation();
  return (
    <>
      <label className="check">
        <input type="checkbox" name="privacy" checked={agreed} onChange={(e) => onAgreed(e.target.checked)} />
        <span>
          {t('app.register.agreeBefore')} <Link to="/privacy-policy">{t('app.register.agreeLink')}</Link>
        </span>
      </label>
      {warning && (
        <p className="warning" role="alert">
          {t('app.register.privacyWarning')}
        </p>
      )}
    </>
  );
}

/** Whether the warning shows, and `warn` to show it for 3 s (spec section 2), again from the start when asked again. */
export function usePrivacyWarning(): [shown: boolean, warn: () => void] {
  const [shown, setShown] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  function warn() {
    setShown(true);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setShown(false), privacyWarningMs);
  }
  return [shown, warn];
}
