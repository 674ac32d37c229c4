import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { Loading } from '../../components/States.tsx';
import { readStored, storageKeys, writeStored } from '../../lib/storage.ts';
import { useSession } from '../../session/SessionProvider.tsx';

/**
 * The token page (spec section 2): takes a jwtToken handed over in the URL (`/token#token=…`, the hash so
 * it never reaches a server log), stores it, and goes to /search once a token exists.
 */
export default function TokenScreen() {
  const { t } = useTranslation();
  const { session, refresh } = useSession();
  const [params] = useSearchParams();
  const fromHash = new URLSearchParams(window.location.hash.slice(1)).get('token') ?? params.get('token');
  const navigate = useNavigate();
  useEffect(() => {
    if (fromHash) {
      writeStored(storageKeys.jwtToken, fromHash);
      window.history.replaceState(null, '', '/token');
      // To /search together with the new session: before it, the members-only gate would see an anonymous
      // visitor and send them to /login.
      void refresh(() => void navigate('/search', { replace: true }));
    }
  }, [fromHash, refresh, navigate]);
  if (!fromHash && readStored(storageKeys.jwtToken) !== null && session.status === 'signedIn') return <Navigate to="/search" replace />;
  return <Loading label={t('app.token.waiting')} />;
}
