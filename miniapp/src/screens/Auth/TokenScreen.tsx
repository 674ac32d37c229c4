import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useSearchParams } from 'react-router';
import { Loading } from '../../components/States.tsx';
import { readStored, storageKeys, writeStored } from '../../lib/storage.ts';
import { useSession } from '../../session/SessionProvider.tsx';

/**
 * The token page (spec section 2): takes a jwtToken handed over in the URL (`/token#token=…`, the hash so
 * it never reaches a server log), stores it, and goes to /search once a token exists.
 */
export default function TokenScreen() {
  const { t } = useTranslation();
  const { refresh } = useSession();
  const [params] = useSearchParams();
  const fromHash = new URLSearchParams(window.location.hash.slice(1)).get('token') ?? params.get('token');
  useEffect(() => {
    if (fromHash) {
      writeStored(storageKeys.jwtToken, fromHash);
      window.history.replaceState(null, '', '/token');
      void refresh();
    }
  }, [fromHash, refresh]);
  if (readStored(storageKeys.jwtToken) !== null || fromHash) return <Navigate to="/search" replace />;
  return <Loading label={t('app.token.waiting')} />;
}
