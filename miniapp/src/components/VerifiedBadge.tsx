import { useTranslation } from 'react-i18next';
import './VerifiedBadge.css';

/**
 * The mark of a person whose selfie matched their photos (issue 40): a seal with a tick, named for screen
 * readers ("Verified photos"), shown wherever their name is (the deck's card, a profile, the own menu card).
 * Nothing when `verified` is not true: the server leaves the field out until it knows.
 */
export function VerifiedBadge({ verified }: { verified: boolean | undefined }) {
  const { t } = useTranslation();
  if (verified !== true) return null;
  const label = t('verification.badge');
  return (
    <span className="verified-badge" role="img" aria-label={label} title={label}>
      <svg viewBox="0 0 24 24" width="1em" height="1em" aria-hidden="true" focusable="false">
        {/* A twelve-pointed seal, as messengers and dating apps draw "verified". */}
        <path
          className="verified-seal"
          d="M12 1.5l2.4 1.9 3-.4 1.2 2.8 2.8 1.2-.4 3 1.9 2.4-1.9 2.4.4 3-2.8 1.2-1.2 2.8-3-.4L12 22.5l-2.4-1.9-3 .4-1.2-2.8-2.8-1.2.4-3L1.1 12l1.9-2.4-.4-3 2.8-1.2 1.2-2.8 3 .4z"
        />
        <path
          className="verified-tick"
          d="M7.6 12.3l3 3 5.8-6"
          fill="none"
          strokeWidth="2.2"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
    </span>
  );
}
