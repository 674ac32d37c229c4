import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useBadges } from '../../api/queries/badgeCounts.ts';
import { markLikesSeen } from '../../api/queries/badges.ts';
import { queryKeys } from '../../api/queries/keys.ts';

/**
 * While the likers are on screen nobody among them is new any more (the Likes badge). A like arriving
 * meanwhile comes only as a count (the `badges` event): the list is read again, and the newcomer is seen too.
 */
export function useLikesSeen(): void {
  const client = useQueryClient();
  const arrived = useBadges().data?.new_likers ?? 0;
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current) {
      if (arrived === 0) return;
      void client.invalidateQueries({ queryKey: queryKeys.likers() });
    }
    opened.current = true;
    void markLikesSeen(client).catch(() => undefined);
  }, [client, arrived]);
}
