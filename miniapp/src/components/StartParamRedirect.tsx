import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { ApiError } from '../api/ApiError.ts';
import { startTarget } from '../lib/startRoute.ts';
import { platform } from '../platform/index.ts';

/** Once per page load: the app opened from a bot button lands on what the button was about. */
let handled = false;

/** What a deep link's navigation carries: it came from a link, or its target was not there. */
interface DeepLinkState {
  deepLink?: true;
  deepLinkUnavailable?: true;
}

const unavailable: DeepLinkState = { deepLinkUnavailable: true };

/** Where the page's deep link leads, as a navigation: its screen, or the deck with the notice. */
export interface StartNavigation {
  to: string;
  state: DeepLinkState;
}

function startNavigation(): StartNavigation | null {
  const target = startTarget(platform().startParam());
  if (!target) return null;
  return 'unknown' in target ? { to: '/search', state: unavailable } : { to: target.route, state: { deepLink: true } };
}

/**
 * The deep link `/` leads to inside Telegram, where `/` itself only ever redirects (session/TelegramRoutes.tsx):
 * taking it there, in one navigation, keeps a second one (to the deck) from overtaking it.
 */
export function useStartNavigation(): StartNavigation | null {
  const [pending] = useState(() => (handled ? null : startNavigation()));
  useEffect(() => {
    handled = true;
  }, []);
  return pending;
}

export function StartParamRedirect() {
  const navigate = useNavigate();
  const { t } = useTranslation();
  const location = useLocation();
  const pathname = location.pathname;
  const state = location.state as DeepLinkState | null;
  useEffect(() => {
    if (handled) return;
    // Telegram's `/` leads there itself (useStartNavigation).
    if (platform().kind === 'telegram' && pathname === '/') return;
    handled = true;
    const next = startNavigation();
    if (next) void navigate(next.to, { replace: true, state: next.state });
  }, [navigate, pathname]);
  // Shown on the deck the link fell back to; the next navigation leaves it behind.
  if (!state?.deepLinkUnavailable) return null;
  return (
    <p className="deep-link-notice" role="status">
      {t('app.deepLink.unavailable')}
    </p>
  );
}

/**
 * On a screen a deep link opened: when its target is gone or no longer allowed (a chat with someone who
 * unmatched, a profile since deleted), fall back to the deck with the notice rather than an error.
 */
export function useDeepLinkFallback(error: unknown): void {
  const navigate = useNavigate();
  const state = useLocation().state as DeepLinkState | null;
  const gone = error instanceof ApiError && [403, 404].includes(error.status);
  useEffect(() => {
    if (gone && state?.deepLink) void navigate('/search', { replace: true, state: unavailable });
  }, [gone, state, navigate]);
}
