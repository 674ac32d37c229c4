import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { usePublicConfig } from '../../api/queries/config.ts';
import { syncGender } from '../../api/queries/settings.ts';
import { AgeRangeSlider } from '../../components/AgeRangeSlider.tsx';
import { LanguageSwitcher } from '../../components/LanguageSwitcher.tsx';
import { Loading } from '../../components/States.tsx';
import { genders, type GenderFilter } from '../../lib/constants.ts';
import { photoUrl } from '../../lib/photos.ts';
import { storeAgeRange, storedAgeRange, storedGender, storeGender } from '../../lib/filters.ts';
import { isDarkApplied, setDarkMode } from '../../lib/theme.ts';
import { platform } from '../../platform/index.ts';
import { useSession } from '../../session/SessionProvider.tsx';
import { DataRights } from './DataRights.tsx';
import { ServerSwitches } from './ServerSwitches.tsx';
import { SubscriptionBanner } from './SubscriptionBanner.tsx';

/** `/Menu` (spec section 2): own card, subscription, filters, settings and links. */
export default function MenuScreen() {
  const { t } = useTranslation();
  const { session } = useSession();
  const [dark, setDark] = useState(isDarkApplied);
  const [gender, setGender] = useState<GenderFilter>(storedGender);
  const [ageRange, setAgeRange] = useState<[number, number]>(storedAgeRange);
  const config = usePublicConfig();

  if (session.status === 'loading') return <Loading />;
  const signedIn = session.status === 'signedIn';
  const profile = signedIn ? session.profile : null;
  const name = typeof profile?.name === 'string' ? profile.name : '';
  const supportTelegram = config?.support_telegram?.replace(/^@/, '');

  return (
    <div className="menu">
      <h1 className="visually-hidden">{t('app.menu.title')}</h1>

      {signedIn && (
        <section className="card own" aria-label={t('app.menu.profile')}>
          {profile ? (
            <Link to="/profile" className="own-link">
              <span className="avatar" aria-hidden="true">
                {profile.photo ? <img src={photoUrl(profile.photo, 'thumb')} alt="" /> : name.slice(0, 1) || '✦'}
              </span>
              <span>
                <strong>{name}</strong>
                {typeof profile.age === 'number' && <>, {profile.age}</>}
                <small className="muted block">{t('app.menu.edit')}</small>
              </span>
            </Link>
          ) : (
            <div className="own-empty">
              <span className="avatar" aria-hidden="true">
                ✦
              </span>
              <div>
                <strong>{t('app.menu.noProfileTitle')}</strong>
                <p className="muted">{t('app.menu.noProfileText')}</p>
                <Link to="/CreateProfile" className="button small">
                  {t('app.menu.createProfile')}
                </Link>
              </div>
            </div>
          )}
        </section>
      )}

      {signedIn && <SubscriptionBanner />}

      <section className="card" aria-labelledby="filters-title">
        <h2 id="filters-title">{t('app.menu.filters')}</h2>
        <div className="field-group">
          <span id="gender-label" className="group-label">
            {t('app.menu.gender')}
          </span>
          <div className="segmented wide" role="group" aria-labelledby="gender-label">
            {genders.map((g) => (
              <button
                key={g}
                type="button"
                aria-pressed={gender === g}
                onClick={() => {
                  setGender(g);
                  storeGender(g);
                  if (profile) void syncGender(g);
                  platform().haptic('selection');
                }}
              >
                {t(`app.menu.genders.${g}`)}
              </button>
            ))}
          </div>
        </div>
        <AgeRangeSlider
          value={ageRange}
          onChange={(range) => {
            setAgeRange(range);
            storeAgeRange(range);
          }}
        />
      </section>

      <section className="card" aria-labelledby="settings-title">
        <h2 id="settings-title">{t('app.menu.settings')}</h2>
        <label className="row switch-row">
          <span>{t('app.menu.darkMode')}</span>
          <input
            type="checkbox"
            role="switch"
            className="switch"
            checked={dark}
            onChange={(e) => {
              setDark(e.target.checked);
              setDarkMode(e.target.checked);
            }}
          />
        </label>
        <div className="row">
          <span>{t('app.language.label')}</span>
          <LanguageSwitcher />
        </div>
        {signedIn && <ServerSwitches hasProfile={profile !== null} />}
      </section>

      <nav className="card links" aria-label={t('app.menu.more')}>
        <Link to="/training" className="row link-row">
          {t('app.menu.training')}
        </Link>
        {config?.support_email && (
          <a href={`mailto:${config.support_email}`} className="row link-row">
            {t('app.menu.contactEmail')}
          </a>
        )}
        {supportTelegram && (
          <a href={`https://t.me/${supportTelegram}`} target="_blank" rel="noreferrer" className="row link-row">
            {t('app.menu.contactTelegram')}
          </a>
        )}
        <Link to="/offer" className="row link-row">
          {t('app.footer.offer')}
        </Link>
        <Link to="/privacy-policy" className="row link-row">
          {t('app.footer.privacy')}
        </Link>
        {signedIn ? (
          <Link to="/logout" className="row link-row danger">
            {t('app.nav.logout')}
          </Link>
        ) : (
          <Link to="/login" className="row link-row">
            {t('app.nav.login')}
          </Link>
        )}
      </nav>
      {signedIn && <DataRights />}
    </div>
  );
}
