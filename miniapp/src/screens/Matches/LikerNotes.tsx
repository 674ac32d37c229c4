import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { PersonListItem } from '@contract/discovery.ts';
import { photoUrl } from '../../lib/photos.ts';
import './LikerNotes.css';

/**
 * The likers who wrote with their like (issue 38), above the others: shown whole on every plan, each with
 * their photo, name, what they wrote and a way to answer (`action`: the likers screen's Start chat).
 */
export function LikerNotes({
  people,
  action,
}: {
  people: PersonListItem[];
  action: (person: PersonListItem) => ReactNode;
}) {
  const { t } = useTranslation();
  if (people.length === 0) return null;
  return (
    <section className="liker-notes" aria-labelledby="liker-notes-title">
      <h2 id="liker-notes-title">{t('app.matches.wroteTitle')}</h2>
      <ul>
        {people.map((person) => (
          <li key={person.id ?? person.message} className="liker-note card">
            <Link className="liker-note-who" to={`/UsersProfileLiker/${person.id ?? ''}`}>
              {person.latest_photo ? (
                <img
                  src={photoUrl(person.latest_photo, 'thumb')}
                  alt=""
                  width={56}
                  height={56}
                  loading="lazy"
                  decoding="async"
                />
              ) : (
                <span className="liker-note-letter" aria-hidden="true">
                  {(person.name ?? '?').slice(0, 1).toUpperCase()}
                </span>
              )}
              <span className="liker-note-name">
                {person.name}
                {person.age ? `, ${person.age}` : ''}
              </span>
            </Link>
            <blockquote className="liker-note-text">{person.message}</blockquote>
            {action(person)}
          </li>
        ))}
      </ul>
    </section>
  );
}
