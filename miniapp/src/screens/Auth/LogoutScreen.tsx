import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { logout } from '../../api/queries/session.ts';
import { Loading } from '../../components/States.tsx';
import { storageKeys, writeStored } from '../../lib/storage.ts';
import { useSession } from '../../session/SessionProvider.tsx';

/** `/logout` (spec section 2): log out, clear the user (and any token), reload the user, go to /. */
export default function LogoutScreen() {
  const navigate = useNavigate();
  const { refresh } = useSession();
  useEffect(() => {
    void (async () => {
      // Spec section 8: a failed logout is logged only.
      await logout().catch((error: unknown) => console.warn('logout failed', error));
      writeStored(storageKeys.jwtToken, null);
      await refresh(() => void navigate('/', { replace: true }));
    })();
  }, [navigate, refresh]);
  return <Loading />;
}
