import { useTranslation } from 'react-i18next';
import { changeLanguage, languages, type Language } from '../i18n.ts';

/** RU / EN as a two-button group; the choice is stored under `language`. */
export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  const current = i18n.language as Language;
  return (
    <div className="segmented" role="group" aria-label={t('app.language.label')}>
      {languages.map((language) => (
        <button key={language} type="button" lang={language} aria-pressed={current === language} onClick={() => void changeLanguage(language)}>
          {t(`app.language.short.${language}`)}
          <span className="visually-hidden"> {t(`app.language.name.${language}`)}</span>
        </button>
      ))}
    </div>
  );
}
