import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod/mini';
import type { reportReasons } from '@contract/discovery.ts';
import { api } from '../client.ts';
import { forgetPerson } from '../liveCache.ts';

const message = z.object({ message: z.string() });
export type ReportReason = (typeof reportReasons)[number];

/** What the safety menu sends: a block, or a report (which also blocks). */
export type SafetyAction = { kind: 'block' } | { kind: 'report'; reason: ReportReason; comment: string };

/** Block and report: the two never see or message each other again, so the person leaves every list. */
export function useSafetyAction(profileId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (action: SafetyAction) =>
      action.kind === 'block'
        ? api.post('/api/block', message, { profile_id: profileId })
        : api.post('/api/report', message, {
            profile_id: profileId,
            reason: action.reason,
            ...(action.comment.trim() ? { comment: action.comment.trim() } : {}),
          }),
    onSuccess: () => forgetPerson(client, profileId),
  });
}
