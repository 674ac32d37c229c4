import { useTranslation } from 'react-i18next';
import { Loading } from '../../components/States.tsx';
import { useSession } from '../../session/SessionProvider.tsx';
import { DataRights } from './DataRights.tsx';
import { FiltersSection } from './FiltersSection.tsx';
import { InviteFriend } from './InviteFriend.tsx';
import { MenuLinks } from './MenuLinks.tsx';
import { OwnCard, VerificationRow } from './OwnCard.tsx';
import { SettingsSection } from './SettingsSection.tsx';
import { SubscriptionBanner } from './SubscriptionBanner.tsx';
import '../../components/Switch.css';
import './Menu.css';

/** `/Menu` (spec section 2): own card, subscription, filters, settings and links. */
export default function MenuScreen() {
  const { t } = useTranslation();
  const { session } = useSession();
  if (session.status === 'loading') return <Loading />;
  const signedIn = session.status === 'signedIn';
  const profile = signedIn ? session.profile : null;
  return (
    <div className="menu">
      <h1 className="visually-hidden">{t('app.menu.title')}</h1>
      {signedIn && <OwnCard profile={profile} />}
      {profile !== null && <VerificationRow />}
      {signedIn && <SubscriptionBanner />}
      <FiltersSection hasProfile={profile !== null} />
      <SettingsSection signedIn={signedIn} hasProfile={profile !== null} />
      {signedIn && <InviteFriend />}
      <MenuLinks signedIn={signedIn} />
      {signedIn && <DataRights />}
    </div>
  );
}
