import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { useBadgeCounts } from '../api/badgeFeed.ts';
import { useTitleCount } from '../lib/titleCount.ts';
import './TabBar.css';

/** Material-style 24 px glyphs, drawn inline: no icon font or sprite on the first load. */
const icons = {
  search:
    'M13.5.67s.74 2.65.74 4.8c0 2.06-1.35 3.73-3.41 3.73-2.07 0-3.63-1.67-3.63-3.73l.03-.36C5.21 7.51 4 10.62 4 14c0 4.42 3.58 8 8 8s8-3.58 8-8C20 8.61 17.41 3.8 13.5.67zM11.71 19c-1.78 0-3.22-1.4-3.22-3.14 0-1.62 1.05-2.76 2.81-3.12 1.77-.36 3.6-1.21 4.62-2.58.39 1.29.59 2.65.59 4.04 0 2.65-2.15 4.8-4.8 4.8z',
  likes:
    'M12 21.35l-1.45-1.32C5.4 15.36 2 12.28 2 8.5 2 5.42 4.42 3 7.5 3c1.74 0 3.41.81 4.5 2.09C13.09 3.81 14.76 3 16.5 3 19.58 3 22 5.42 22 8.5c0 3.78-3.4 6.86-8.55 11.54L12 21.35z',
  matches:
    'M16 11c1.66 0 2.99-1.34 2.99-3S17.66 5 16 5s-3 1.34-3 3 1.34 3 3 3zm-8 0c1.66 0 2.99-1.34 2.99-3S9.66 5 8 5 5 6.34 5 8s1.34 3 3 3zm0 2c-2.33 0-7 1.17-7 3.5V19h14v-2.5c0-2.33-4.67-3.5-7-3.5zm8 0c-.29 0-.62.02-.97.05 1.16.84 1.97 1.97 1.97 3.45V19h6v-2.5c0-2.33-4.67-3.5-7-3.5z',
  chats: 'M20 2H4c-1.1 0-2 .9-2 2v18l4-4h14c1.1 0 2-.9 2-2V4c0-1.1-.9-2-2-2z',
  menu: 'M3 18h18v-2H3v2zm0-5h18v-2H3v2zm0-7v2h18V6H3z',
} as const;

type Tab = { to: string; icon: keyof typeof icons; label: string; badge?: { count: number; name: string } };

/** What a badge shows: the exact count up to 99 (the accessible name always has the exact one). */
function badgeText(count: number): string {
  return count > 99 ? '99+' : String(count);
}

/**
 * The signed-in app's main navigation (issue 19): five tabs within thumb reach at the bottom of a phone,
 * a rail at the side on a wide screen (TabBar.css), each with its icon and label; the current one is
 * marked with `aria-current="page"` (NavLink). Chats, Matches and Likes carry counts from
 * `GET /api/badges`, kept true by the live stream (api/liveCache.ts), handed over by the live connection
 * (api/badgeFeed.ts): the bar itself needs no query cache, so it comes with the deck's first card.
 */
export function TabBar() {
  const { t } = useTranslation();
  const counts = useBadgeCounts();
  useTitleCount(counts);
  const tabs: Tab[] = [
    { to: '/search', icon: 'search', label: t('app.nav.search') },
    {
      to: '/WhoLike',
      icon: 'likes',
      label: t('app.nav.likes'),
      badge: counts && { count: counts.new_likers, name: t('app.badges.newLikers', { count: counts.new_likers }) },
    },
    {
      to: '/matches',
      icon: 'matches',
      label: t('app.nav.matches'),
      badge: counts && { count: counts.new_matches, name: t('app.badges.newMatches', { count: counts.new_matches }) },
    },
    {
      to: '/ChatList',
      icon: 'chats',
      label: t('app.nav.chats'),
      badge: counts && {
        count: counts.unread_chats,
        name: t('app.badges.unreadChats', { count: counts.unread_chats }),
      },
    },
    { to: '/Menu', icon: 'menu', label: t('app.nav.menu') },
  ];
  return (
    <nav className="tabbar" aria-label={t('app.nav.label')}>
      {tabs.map((tab) => (
        <NavLink key={tab.to} to={tab.to} className="tab">
          <span className="tab-icon">
            <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
              <path fill="currentColor" d={icons[tab.icon]} />
            </svg>
            {tab.badge && tab.badge.count > 0 && (
              <span className="tab-badge" data-count={tab.badge.count}>
                <span aria-hidden="true">{badgeText(tab.badge.count)}</span>
              </span>
            )}
          </span>
          <span className="tab-label">
            {tab.label}
            {/* The name says the count after the label: "Chats 3 unread chats". */}
            {tab.badge && tab.badge.count > 0 && <span className="visually-hidden"> {tab.badge.name}</span>}
          </span>
        </NavLink>
      ))}
    </nav>
  );
}
