import { useTranslation } from 'react-i18next';
import { changeLanguage, languages, type Language } from '../i18n.ts';
import { useSession } from '../session/SessionProvider.tsx';

/** One save at a time, in the order of the taps: two quick taps must leave the account on the last one. */
let saving: Promise<void> = Promise.resolve();

function saveOnAccount(language: Language): void {
  // The API client is not part of the landing's first load: fetched with the tap.
  saving = saving
    .then(() => import('../api/queries/session.ts'))
    .then(({ saveLanguage }) => saveLanguage(language))
    .then(
      () => undefined,
      (error: unknown) => console.warn('language not saved on the account', error),
    );
}

/**
 * RU / EN as a two-button group; the choice is stored under `language` and, when signed in, on the
 * account (the account's language wins on every device and in the bot).
 */
export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  const { session } = useSession();
  const current = i18n.language as Language;
  const choose = (language: Language) => {
    void changeLanguage(language);
    if (session.status !== 'signedIn') return;
    saveOnAccount(language);
  };
  return (
    <div className="segmented" role="group" aria-label={t('app.language.label')}>
      {languages.map((language) => (
        <button
          key={language}
          type="button"
          lang={language}
          aria-pressed={current === language}
          onClick={() => choose(language)}
        >
          {t(`app.language.short.${language}`)}
          <span className="visually-hidden"> {t(`app.language.name.${language}`)}</span>
        </button>
      ))}
    </div>
  );
}
