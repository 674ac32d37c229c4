import { useParams } from 'react-router';

/** The `{profileId}` of the route, or 0 (which the server answers as not found) when it is not a number. */
export function useProfileIdParam(): number {
  const id = Number(useParams().id);
  return Number.isInteger(id) && id > 0 ? id : 0;
}
