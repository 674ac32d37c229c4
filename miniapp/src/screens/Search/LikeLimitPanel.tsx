import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorText } from '../../lib/errorText.ts';
import type { LikeLimit } from './useSwipeDeck.ts';

const minuteMs = 60_000;

/**
 * The time left, in whole minutes rounded up (a like is never promised before it is back): "2 h 15 min",
 * "3 h", "40 min". Hours and minutes as abbreviations, which Russian does not decline.
 */
function useTimeLeft(backAt: number): { hours: number; minutes: number } {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    // Wakes when the shown minute changes, not every second.
    const left = backAt - now;
    if (left <= 0) return;
    const timer = setTimeout(() => setNow(Date.now()), left % minuteMs || minuteMs);
    return () => clearTimeout(timer);
  }, [backAt, now]);
  const total = Math.max(1, Math.ceil((backAt - now) / minuteMs));
  return { hours: Math.floor(total / 60), minutes: total % 60 };
}

function TimeLeft({ backAt }: { backAt: number }) {
  const { t } = useTranslation();
  const { hours, minutes } = useTimeLeft(backAt);
  const time =
    hours === 0
      ? t('app.search.minutesLeft', { minutes })
      : minutes === 0
        ? t('app.search.hoursLeft', { hours })
        : t('app.search.hoursMinutesLeft', { hours, minutes });
  return <p className="like-limit-time">{t('app.search.likesBackIn', { time })}</p>;
}

/**
 * The free like limit, over the deck: why, when the next like is back (the server's Retry-After), the way
 * to Premium, and Close. While it is open the deck takes no decision (SearchScreen); it goes by itself
 * when the like is back.
 */
export function LikeLimitPanel({ limit, onClose }: { limit: LikeLimit; onClose: () => void }) {
  const { t } = useTranslation();
  const premium = useRef<HTMLAnchorElement>(null);
  // The deck's buttons are disabled under it: the focus comes here rather than falling to the page.
  useEffect(() => premium.current?.focus(), []);
  return (
    <div className="like-limit card" role="alert">
      <p>{errorText(t, limit.error, 'errors.like_limit')}</p>
      {limit.backAt !== null && <TimeLeft backAt={limit.backAt} />}
      <Link className="button block" to="/subscription" ref={premium}>
        {t('app.search.getPremium')}
      </Link>
      <button type="button" className="button secondary block" onClick={onClose}>
        {t('app.common.close')}
      </button>
    </div>
  );
}
