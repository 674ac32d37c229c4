import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { ApiError } from '../api/ApiError.ts';
import { startTarget } from '../lib/startRoute.ts';
import { platform } from '../platform/index.ts';
import './StartParamRedirect.css';

/**
 * Once per launch: the app opened from a bot button lands on what the button was about, and only then. A
 * reload of the same launch (Telegram keeps its launch data, start parameter included) stays where the
 * user went; a new launch (new launch data) follows its link again. Kept for the tab, by the launch's id.
 */
const consumedKey = 'iskra.startParamLaunch';

function consumedBefore(): boolean {
  const launch = platform().launchId();
  if (launch === null) return false;
  try {
    return sessionStorage.getItem(consumedKey) === launch;
  } catch {
    return false;
  }
}

function markConsumed(): void {
  handled = true;
  const launch = platform().launchId();
  if (launch === null) return;
  try {
    sessionStorage.setItem(consumedKey, launch);
  } catch {
    // No storage (private mode): once per page load, as the flag below keeps it.
  }
}

/** This page load has dealt with the link (or an earlier load of the same launch had). */
let handled = false;

/**
 * What a deep link's navigation carries: it came from a link, or its target was not there. The notice names
 * this page load: the browser keeps a location's state over a reload, and a reload must not say it again.
 */
interface DeepLinkState {
  deepLink?: true;
  deepLinkUnavailable?: string;
}

const pageLoad = Math.random().toString(36).slice(2);
const unavailable: DeepLinkState = { deepLinkUnavailable: pageLoad };

/** Where the page's deep link leads, as a navigation: its screen, or the deck with the notice. */
export interface StartNavigation {
  to: string;
  state: DeepLinkState;
}

function startNavigation(): StartNavigation | null {
  if (consumedBefore()) return null;
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
    markConsumed();
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
    const next = startNavigation();
    markConsumed();
    if (next) void navigate(next.to, { replace: true, state: next.state });
  }, [navigate, pathname]);
  // Shown on the deck the link fell back to; the next navigation leaves it behind.
  if (state?.deepLinkUnavailable !== pageLoad) return null;
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
