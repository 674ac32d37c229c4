import { Navigate, Outlet } from 'react-router';
import { useStartNavigation } from '../components/StartParamRedirect.tsx';
import { lazyScreen } from '../components/lazyScreen.ts';
import { Loading } from '../components/States.tsx';
import { platform } from '../platform/index.ts';
import { useSession } from './SessionProvider.tsx';
// The landing's styles in the entry's stylesheet, not its chunk's: the landing index.html carries
// (bootLandingPlugin.ts) paints with the HTML and must look as the app will draw it (issue 41).
import '../screens/Landing/Landing.css';

// The landing reads nothing through the query cache (the footer's config has its own): no TanStack Query on /.
const Landing = lazyScreen(() => import('../screens/Landing/LandingScreen.tsx'), { queries: false });
const LaunchFailed = lazyScreen(() => import('../screens/Launch/LaunchFailedScreen.tsx'));

const insideTelegram = () => platform().kind === 'telegram';

/**
 * `/`: the landing page on the web. Inside Telegram the app is no web site: it opens straight on the deck
 * (or the profile wizard for a new user), or, when the launch data failed, on the screen that says so.
 */
export function HomeRoute() {
  return insideTelegram() ? <TelegramHome /> : <Landing />;
}
/** The web's landing, loaded before the first render (App.tsx, preloadScreensAt). */
HomeRoute.preload = () => (insideTelegram() ? Promise.resolve() : Landing.preload());

function TelegramHome() {
  const { session } = useSession();
  const deepLink = useStartNavigation();
  if (session.status === 'loading') return <Loading />;
  if (session.status === 'signedIn') {
    if (deepLink) return <Navigate to={deepLink.to} state={deepLink.state} replace />;
    return <Navigate to={session.profile ? '/search' : '/CreateProfile'} replace />;
  }
  return <LaunchFailed failure={session.launchFailure ?? 'unavailable'} />;
}

/** The web's own ways in (e-mail forms, the token page): never inside Telegram, where `/` decides. */
export function WebOnly() {
  if (insideTelegram()) return <Navigate to="/" replace />;
  return <Outlet />;
}
