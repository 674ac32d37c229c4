import type { ReactNode } from 'react';
import type { PersonListItem } from '@contract/discovery.ts';
import { PersonCard } from './PersonCard.tsx';

/**
 * The grid of matches or likers: one item per person, their card (PersonCard) and whatever the screen puts
 * under it (`below`: a line of text, an action, or both).
 */
export function PersonGrid({
  people,
  linkTo,
  label,
  below,
}: {
  people: PersonListItem[];
  linkTo: (person: PersonListItem) => string;
  label: string;
  below?: (person: PersonListItem) => ReactNode;
}) {
  return (
    <ul className="person-grid" aria-label={label}>
      {people.map((person, i) => (
        <li key={person.id ?? `blurred-${i}`}>
          <PersonCard person={person} to={linkTo(person)} />
          {below?.(person)}
        </li>
      ))}
    </ul>
  );
}
