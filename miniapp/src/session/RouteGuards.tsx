import { Navigate, Outlet, useLocation } from 'react-router';
import { platform } from '../platform/index.ts';
import { useSession } from './SessionProvider.tsx';

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
 */
export function RequireMember() {
  const { session } = useSession();
  const { pathname } = useLocation();
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
