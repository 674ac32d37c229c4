import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router';
import { platform } from '../platform/index.ts';
import { useSession } from '../session/SessionProvider.tsx';

/** Spec section 2: what the top bar offers in each session state; the brand goes to /search. */
export function TopBar() {
  const { t } = useTranslation();
  const { session } = useSession();
  const fullMenu = session.status === 'signedIn' && (session.profile !== null || session.tokenOnly);
  // Inside Telegram the web site's ways in (home, sign-in, register) do not exist.
  const webLinks = session.status === 'anonymous' && platform().kind !== 'telegram';
  return (
    // Three or four links leave no room for the brand's name on a narrow phone (see app.css).
    <header className={webLinks || fullMenu ? 'topbar crowded' : 'topbar'}>
      <Link to="/search" className="brand" aria-label={t('app.brand.home')}>
        <img src="/favicon.svg" alt="" width="28" height="28" />
        <span>{t('app.brand.name')}</span>
      </Link>
      <nav aria-label={t('app.nav.label')} className="topnav">
        {session.status === 'loading' && <span className="topnav-placeholder" aria-hidden="true" />}
        {webLinks && (
          <>
            <NavLink to="/" end>
              {t('app.nav.home')}
            </NavLink>
            <NavLink to="/login">{t('app.nav.login')}</NavLink>
            <Link to="/register" className="button small">
              {t('app.nav.tryNow')}
            </Link>
          </>
        )}
        {session.status === 'signedIn' && fullMenu && (
          <>
            <NavLink to="/ChatList">{t('app.nav.chats')}</NavLink>
            <NavLink to="/WhoLike">{t('app.nav.likes')}</NavLink>
            <NavLink to="/matches">{t('app.nav.matches')}</NavLink>
            <NavLink to="/Menu">{t('app.nav.menu')}</NavLink>
          </>
        )}
        {session.status === 'signedIn' && !fullMenu && <NavLink to="/logout">{t('app.nav.logout')}</NavLink>}
      </nav>
    </header>
  );
}
