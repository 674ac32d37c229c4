import { Navigate, Outlet, useLocation } from 'react-router';
import { Loading } from '../components/States.tsx';
import { platform } from '../platform/index.ts';
import { useSession } from './SessionProvider.tsx';
import { signsInByLaunch } from './telegramSignIn.ts';

/**
 * The session rules of spec sections 4 and 6 as layout routes: App.tsx puts each screen under the guards
 * it needs. While the session is loading, or when checking it failed (`unconfirmed`), nobody is sent
 * anywhere; a Telegram or token session (`tokenOnly`) is verified by its issuer and finds its missing
 * profile through the deck.
 */

/** A signed-in user who has not verified the e-mail address goes to /verify first. */
export function RequireVerified() {
  const { session } = useSession();
  if (session.status === 'signedIn' && !session.tokenOnly && !session.verified)
    return <Navigate to="/verify" replace />;
  return <Outlet />;
}

/**
 * Members only: an anonymous visitor signs in first, and comes back here after (LoginScreen reads `from`).
 * Inside Telegram there is no sign-in form: `/` says why the launch data failed and offers to reopen.
 *
 * While the launch data are still signing the user in, the screen waits: its first reads would go without
 * the token and be refused, the refusal would check the session, and an anonymous answer arriving before
 * the sign-in's would send the user from the screen they opened (via `/` to the deck), or leave the
 * screen on its load error. A cookie or stored token session has nothing to wait for.
 */
export function RequireMember() {
  const { session } = useSession();
  const { pathname } = useLocation();
  if (session.status === 'loading' && signsInByLaunch()) return <Loading />;
  if (session.status === 'anonymous' && !session.unconfirmed) {
    return platform().kind === 'telegram' ? (
      <Navigate to="/" replace />
    ) : (
      <Navigate to="/login" replace state={{ from: pathname }} />
    );
  }
  return <Outlet />;
}

/** A verified member without a profile creates one first. */
export function RequireProfile() {
  const { session } = useSession();
  if (session.status === 'signedIn' && !session.tokenOnly && session.verified && session.profile === null)
    return <Navigate to="/CreateProfile" replace />;
  return <Outlet />;
}
