import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { platform } from '../platform/index.ts';
import { useSession } from '../session/SessionProvider.tsx';
import { StartParamRedirect } from './StartParamRedirect.tsx';
import { Loading } from './States.tsx';
import { TopBar } from './TopBar.tsx';

/** Paths an unverified user may still open; everything else sends them to /verify (spec section 6). */
const openToUnverified = new Set(['/verify', '/logout', '/offer', '/privacy-policy', '/', '/confirm', '/fail', '/successtrig', '/failtrig']);
/** Paths that need a profile; a verified user without one goes to /CreateProfile (spec section 4). */
const needsProfile = new Set(['/search', '/matches', '/wholike', '/chatlist', '/profile', '/edit_profile', '/edit_photo', '/foto', '/cropimage', '/training']);
const needsProfilePrefixes = ['/chat/', '/usersprofile/', '/usersprofileliker/'];
/** Paths for members only: an anonymous visitor is asked to sign in first, and comes back after. */
const membersOnly = new Set([...needsProfile, '/menu', '/subscription', '/createprofile']);
/** Top-level screens: no back button there. */
const rootPaths = new Set(['/', '/search']);

/** Tells the host the first screen has rendered (Telegram's ready(); a mark for the bench). */
function ReadySignal() {
  useEffect(() => {
    if (document.documentElement.dataset.ready === 'true') return;
    performance.mark('iskra:ready');
    platform().ready();
  }, []);
  return null;
}

function SessionGate() {
  const { session } = useSession();
  const { pathname } = useLocation();
  const path = pathname.toLowerCase();
  if (session.status === 'anonymous' && !session.unconfirmed && (membersOnly.has(path) || needsProfilePrefixes.some((p) => path.startsWith(p)))) {
    return <Navigate to="/login" replace state={{ from: pathname }} />;
  }
  if (session.status !== 'signedIn' || session.tokenOnly) return null;
  if (!session.verified && !openToUnverified.has(path)) return <Navigate to="/verify" replace />;
  if (session.verified && session.profile === null && (needsProfile.has(path) || needsProfilePrefixes.some((p) => path.startsWith(p)))) return <Navigate to="/CreateProfile" replace />;
  return null;
}

function BackButton() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    platform().setBackButton(rootPaths.has(pathname) ? null : () => void navigate(-1));
  }, [pathname, navigate]);
  return null;
}

export function Layout() {
  const { pathname } = useLocation();
  const framed = pathname === '/offer' || pathname === '/privacy-policy';
  // A conversation fills the screen below the top bar; only its messages scroll.
  const chat = pathname.toLowerCase().startsWith('/chat/');
  return (
    <div className={framed ? 'app framed' : chat ? 'app chat-mode' : 'app'}>
      <a href="#main" className="skip-link">
        <SkipText />
      </a>
      <TopBar />
      <SessionGate />
      <BackButton />
      <StartParamRedirect />
      <main id="main" className="main" tabIndex={-1}>
        <Suspense fallback={<Loading />}>
          <Outlet />
          <ReadySignal />
        </Suspense>
      </main>
    </div>
  );
}

function SkipText() {
  const { t } = useTranslation();
  return <>{t('app.nav.skip')}</>;
}
