import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router';
import { platform } from '../platform/index.ts';
import { memberKey, useSession } from '../session/SessionProvider.tsx';
import './TopBar.css';

function Brand() {
  const { t } = useTranslation();
  return (
    <Link to="/search" className="brand" aria-label={t('app.brand.home')}>
      <img src="/favicon.svg" alt="" width="28" height="28" />
      <span>{t('app.brand.name')}</span>
    </Link>
  );
}

/** Spec section 2: what the top bar offers in each session state; the brand goes to /search. */
export function TopBar() {
  const { t } = useTranslation();
  const { session } = useSession();
  // A member's screens are in the tab bar (TabBar.tsx).
  if (memberKey(session) !== null) {
    return (
      <header className="topbar">
        <Brand />
      </header>
    );
  }
  // Inside Telegram the web site's ways in (home, sign-in, register) do not exist.
  const web = platform().kind !== 'telegram';
  const webLinks = web && session.status === 'anonymous';
  return (
    // Three links leave no room for the brand's name on a narrow phone (see TopBar.css). Already so while
    // the session loads on the web, where those links are the likely answer: they then fill a bar whose
    // parts stay where they were, where the name's going used to move the whole nav (a layout shift of
    // 0.016 on `/`, issue 41). Not for a signed-in account not yet a member (its one link, Logout).
    <header className={web && session.status !== 'signedIn' ? 'topbar crowded' : 'topbar'}>
      <Brand />
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
        {session.status === 'signedIn' && <NavLink to="/logout">{t('app.nav.logout')}</NavLink>}
      </nav>
    </header>
  );
}
