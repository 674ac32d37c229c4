import { useTranslation } from 'react-i18next';
import { genderContext } from '@locales/genderContext.ts';
import './LikeNote.css';

/**
 * What someone wrote with their like to the user, over the top of their card in the deck (issue 38): who
 * wrote ("Она написала вам") and the words, so the card reads as an answer waiting to be given.
 */
export function LikeNote({ message, gender }: { message: string; gender: string }) {
  const { t } = useTranslation();
  return (
    <figure className="like-note">
      <figcaption>{t('app.search.wroteYou', { context: genderContext(gender) })}</figcaption>
      <blockquote>{message}</blockquote>
    </figure>
  );
}
