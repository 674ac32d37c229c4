import { useTranslation } from 'react-i18next';
import { useMatchProfile } from '../../api/queries/matches.ts';
import { openerLines } from './openerLines.ts';
import './Openers.css';

/**
 * An empty conversation's suggested first lines, built from the other person's profile (their prompts when
 * they have some). A tap puts the line in the message box (`onPick`) and sends nothing. Until the profile is
 * read nothing shows (the lines would change under the finger); if it cannot be read, lines from the name.
 */
export function Openers({
  partnerId,
  partnerName,
  onPick,
}: {
  partnerId: number;
  partnerName: string;
  onPick: (line: string) => void;
}) {
  const { t } = useTranslation();
  const profile = useMatchProfile(partnerId);
  const source = profile.data ?? (profile.isError ? { name: partnerName } : null);
  if (!source) return null;
  const lines = openerLines(t, source);
  return (
    <section className="openers" aria-labelledby="openers-title">
      <h2 id="openers-title" className="openers-title">
        {t('app.chat.openers.title')}
      </h2>
      <p className="openers-hint">{t('app.chat.openers.hint')}</p>
      <ul className="openers-list">
        {lines.map((line) => (
          <li key={line}>
            <button type="button" className="opener" onClick={() => onPick(line)}>
              {line}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
