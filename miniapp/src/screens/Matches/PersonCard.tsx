import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { PersonListItem } from '@contract/discovery.ts';
import { photoUrl } from '../../lib/photos.ts';

/** One person of a list: the photo with name and age over it, leading to that person (a hidden liker's blurred photo has no name). */
export function PersonCard({ person, to }: { person: PersonListItem; to: string }) {
  const { t } = useTranslation();
  return (
    <Link
      className={person.blurred ? 'person-card blurred' : 'person-card'}
      to={to}
      // A hidden liker has no name to read out: say what the card is and where it leads.
      aria-label={person.blurred ? t('app.matches.hiddenLiker') : undefined}
    >
      {person.latest_photo ? (
        <img
          src={photoUrl(person.latest_photo, person.blurred ? 'full' : 'thumb')}
          alt=""
          width={180}
          height={240}
          loading="lazy"
          decoding="async"
        />
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
  );
}
