import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate } from 'react-router';
import { useHandoverPreview, useRedeemHandover } from '../../api/queries/handover.ts';
import { ErrorLine, Loading } from '../../components/States.tsx';
import { errorText } from '../../lib/errorText.ts';
import { storageKeys, writeStored } from '../../lib/storage.ts';
import { useSession } from '../../session/SessionProvider.tsx';

/** The code in `/token#code=…`. */
function readCode(): string | null {
  return new URLSearchParams(window.location.hash.slice(1)).get('code');
}

/**
 * The token page (spec section 2: goes to /search once signed in). A link hands a session over by a
 * one-time code (server: SessionHandoverService), never by a token: the page names the account ("Continue
 * as <name>?") and only the person's Continue redeems the code by POST, so a link someone else made cannot
 * sign this browser in to their account unnoticed (login CSRF).
 */
export default function TokenScreen() {
  const { t } = useTranslation();
  const { session, adopt } = useSession();
  const navigate = useNavigate();
  const [code] = useState(readCode);
  const preview = useHandoverPreview();
  const redeem = useRedeemHandover();
  const { mutate: ask } = preview;

  useEffect(() => {
    // Out of the address and history at once. A `#token=…` (the old handover) or `?token=…` is dropped
    // unread: stored, a crafted link would sign this browser in to someone else's account.
    if (window.location.hash || window.location.search) window.history.replaceState(null, '', '/token');
    if (code) ask(code);
  }, [code, ask]);

  if (!code) {
    if (session.status === 'loading') return <Loading label={t('app.token.waiting')} />;
    if (session.status === 'signedIn') return <Navigate to="/search" replace />;
    return <Invalid />;
  }
  if (preview.isPending || preview.isIdle) return <Loading label={t('app.token.waiting')} />;
  if (preview.isError) return <Invalid />;
  const name = preview.data.name ?? t('app.token.someone');

  function accept() {
    if (!code) return;
    redeem.mutate(code, {
      onSuccess: (answer) => {
        // The cookie session now speaks for this browser; a token kept from another account would win over it.
        writeStored(storageKeys.jwtToken, null);
        adopt(answer.current_user, () => void navigate('/search', { replace: true }));
      },
    });
  }

  return (
    <div className="card auth" data-testid="handover-confirm">
      <h1>{t('app.token.title', { name })}</h1>
      <p className="muted">{t('app.token.text', { name })}</p>
      <ErrorLine message={redeem.error ? errorText(t, redeem.error, 'app.token.failed') : null} />
      <button
        type="button"
        className="button large block"
        disabled={redeem.isPending || redeem.isSuccess}
        onClick={accept}
      >
        {redeem.isPending ? t('app.common.wait') : t('app.token.continue', { name })}
      </button>
      <button
        type="button"
        className="button secondary block"
        disabled={redeem.isPending}
        onClick={() => void navigate('/', { replace: true })}
      >
        {t('app.token.cancel')}
      </button>
    </div>
  );
}

function Invalid() {
  const { t } = useTranslation();
  return (
    <div className="card auth" data-testid="handover-invalid">
      <p>{t('app.token.invalid')}</p>
      <Link className="button block" to="/login">
        {t('app.token.toLogin')}
      </Link>
    </div>
  );
}
