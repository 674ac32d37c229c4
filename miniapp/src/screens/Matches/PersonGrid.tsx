import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { PersonListItem } from '@contract/discovery.ts';
import { photoUrl } from '../../lib/photos.ts';

/** The grid of matches or likers: photo cards with name and age, each leading to that person, and an optional action under each. */
export function PersonGrid({
  people,
  linkTo,
  label,
  action,
}: {
  people: PersonListItem[];
  linkTo: (person: PersonListItem) => string;
  label: string;
  action?: (person: PersonListItem) => ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <ul className="person-grid" aria-label={label}>
      {people.map((person, i) => (
        <li key={person.id ?? `blurred-${i}`}>
          <Link
            className={person.blurred ? 'person-card blurred' : 'person-card'}
            to={linkTo(person)}
            // A hidden liker has no name to read out: say what the card is and where it leads.
            aria-label={person.blurred ? t('app.matches.hiddenLiker') : undefined}
          >
            {person.latest_photo ? (
              <img src={photoUrl(person.latest_photo, person.blurred ? 'full' : 'thumb')} alt="" width={180} height={240} loading="lazy" decoding="async" />
            ) : (
              <span className="person-card-empty" aria-hidden="true" />
            )}
            {person.name && (
              <span className="person-card-name">
                {person.name}
                {person.age ? `, ${person.age}` : ''}
              </span>
            )}
          </Link>
          {action?.(person)}
        </li>
      ))}
    </ul>
  );
}
