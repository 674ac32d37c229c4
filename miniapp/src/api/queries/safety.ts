import { z } from 'zod';
import type { reportReasons } from '../../../../server/contract/discovery.ts';
import { api } from '../client.ts';

const message = z.object({ message: z.string() });
export type ReportReason = (typeof reportReasons)[number];

/** Block and report (a report also blocks): the two never see or message each other again. */
export const safetyQueries = {
  block: (profileId: number) => api.post('/api/block', message, { profile_id: profileId }),
  report: (profileId: number, reason: ReportReason, comment: string) =>
    api.post('/api/report', message, { profile_id: profileId, reason, ...(comment.trim() ? { comment: comment.trim() } : {}) }),
};
