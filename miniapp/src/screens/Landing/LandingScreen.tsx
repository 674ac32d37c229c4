import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { Footer } from '../../components/Footer.tsx';
import { LanguageSwitcher } from '../../components/LanguageSwitcher.tsx';
import { useSession } from '../../session/SessionProvider.tsx';
import { OpenInTelegram } from './OpenInTelegram.tsx';

/** `/`: title, description, language switcher; Sign in + Try now, or Search when signed in (spec section 2). */
export default function LandingScreen() {
  const { t } = useTranslation();
  const { session } = useSession();
  // Arrived here from deleting the account (Menu → Your data): say it is done.
  const accountDeleted = (useLocation().state as { accountDeleted?: boolean } | null)?.accountDeleted === true;
  // The menu was scrolled down to the delete button: the notice is at the top, so the page starts there.
  useEffect(() => {
    if (accountDeleted) window.scrollTo(0, 0);
  }, [accountDeleted]);
  return (
    <div className="landing">
      {accountDeleted && (
        <section className="card account-deleted" role="status" aria-labelledby="account-deleted-title">
          <h2 id="account-deleted-title">{t('app.dataRights.deletedTitle')}</h2>
          <p>{t('app.dataRights.deletedText')}</p>
        </section>
      )}
      <section className="hero" aria-labelledby="landing-title">
        <div className="hero-lang">
          <LanguageSwitcher />
        </div>
        <div className="hero-mark" aria-hidden="true">
          <img src="/favicon.svg" alt="" width="72" height="72" />
        </div>
        <h1 id="landing-title">{t('app.landing.title')}</h1>
        <p className="lead">{t('app.landing.description')}</p>
        <ul className="benefits">
          <li>{t('app.landing.point1')}</li>
          <li>{t('app.landing.point2')}</li>
          <li>{t('app.landing.point3')}</li>
        </ul>
        <div className="actions">
          {session.status === 'signedIn' ? (
            <Link to="/search" className="button large">
              {t('app.landing.search')}
            </Link>
          ) : (
            <>
              <Link to="/register" className="button large">
                {t('app.landing.tryNow')}
              </Link>
              <Link to="/login" className="button large secondary">
                {t('app.landing.signIn')}
              </Link>
            </>
          )}
          <OpenInTelegram />
        </div>
      </section>
      <Footer />
    </div>
  );
}
