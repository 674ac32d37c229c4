import { useTranslation } from 'react-i18next';
import { platform } from '../platform/index.ts';
import { VerifiedBadge } from './VerifiedBadge.tsx';
import './Switch.css';
import './VerifiedOnlySwitch.css';

/**
 * The deck's "verified only" filter (issue 40, free for everyone) as a switch: the menu's filters and the
 * empty deck show the same one. Off is no limit at all (the filter is left out of the search).
 */
export function VerifiedOnlySwitch({ value, onChange }: { value: boolean; onChange: (verifiedOnly: boolean) => void }) {
  const { t } = useTranslation();
  return (
    <label className="verified-only">
      <span>
        {t('verification.filter.label')}
        <VerifiedBadge verified />
        <small className="muted block">{t('verification.filter.hint')}</small>
      </span>
      <input
        type="checkbox"
        role="switch"
        className="switch"
        data-filter="verifiedOnly"
        checked={value}
        onChange={(e) => {
          platform().haptic('selection');
          onChange(e.target.checked);
        }}
      />
    </label>
  );
}
