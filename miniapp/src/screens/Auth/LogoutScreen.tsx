import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { logout } from '../../api/queries/session.ts';
import { Loading } from '../../components/States.tsx';
import { storageKeys, writeStored } from '../../lib/storage.ts';
import { disablePush } from '../../lib/webPush.ts';
import { useSession } from '../../session/SessionProvider.tsx';

/**
 * `/logout` (spec section 2): log out, clear the user (and any token), reload the user, go to /. With a
 * `next` in the navigation state ("Sign in again" on the account screen) it goes to /login instead, which
 * returns there after the sign-in.
 */
export default function LogoutScreen() {
  const navigate = useNavigate();
  const { refresh } = useSession();
  const next = (useLocation().state as { next?: unknown } | null)?.next;
  const after = typeof next === 'string' && next.startsWith('/') && !next.startsWith('//') ? next : null;
  useEffect(() => {
    void (async () => {
      // This browser's pushes were the account's: off before the session ends (the server drops them with it too).
      await disablePush().catch(() => undefined);
      // Spec section 8: a failed logout is logged only.
      await logout().catch((error: unknown) => console.warn('logout failed', error));
      writeStored(storageKeys.jwtToken, null);
      await refresh(
        () =>
          void (after
            ? navigate('/login', { replace: true, state: { from: after } })
            : navigate('/', { replace: true })),
      );
    })();
  }, [navigate, refresh, after]);
  return <Loading />;
}
