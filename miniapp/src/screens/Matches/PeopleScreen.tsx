import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { PersonListItem } from '@contract/discovery.ts';
import { QueryView } from '../../components/States.tsx';
import type { TranslationKey } from '../../i18n.ts';
import { PersonGrid } from './PersonGrid.tsx';
import './Matches.css';

/**
 * What `/matches` and `/WhoLike` share: a titled screen over one list of people, with its loading, error
 * and empty states, and the grid of their cards (PersonGrid).
 */
export function PeopleScreen({
  titleId,
  title,
  query,
  failedKey,
  exceptionKey,
  empty,
  linkTo,
  above,
  inGrid,
  below,
}: {
  titleId: string;
  title: string;
  query: UseQueryResult<PersonListItem[]>;
  failedKey: TranslationKey;
  exceptionKey: TranslationKey;
  /** Shown when nobody is in the list. */
  empty: ReactNode;
  linkTo: (person: PersonListItem) => string;
  /** Over the grid when somebody is in the list. */
  above?: (people: PersonListItem[]) => ReactNode;
  /** Who of the list the grid shows (everyone when absent: `above` may show the others its own way). */
  inGrid?: (person: PersonListItem) => boolean;
  /** Under each person's card (PersonGrid). */
  below?: (person: PersonListItem) => ReactNode;
}) {
  return (
    <section aria-labelledby={titleId}>
      <h1 id={titleId}>{title}</h1>
      <QueryView
        query={query}
        failedKey={failedKey}
        exceptionKey={exceptionKey}
        isEmpty={(people) => people.length === 0}
        empty={empty}
      >
        {(people) => (
          <>
            {above?.(people)}
            {people.some((p) => inGrid?.(p) ?? true) && (
              <PersonGrid
                people={inGrid ? people.filter(inGrid) : people}
                label={title}
                linkTo={linkTo}
                below={below}
              />
            )}
          </>
        )}
      </QueryView>
    </section>
  );
}
