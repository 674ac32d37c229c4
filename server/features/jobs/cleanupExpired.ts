import { addSeconds } from '../../clock.ts';
import { frontierMaxAgeMs } from '../search/index.ts';
import type { JobContext, JobCounts } from './job.ts';
import {
  deleteCodesCreatedBefore,
  deleteEventsBefore,
  deleteHandoversExpiredBefore,
  deleteLinkTokensExpiredBefore,
  deleteLoginFailuresBefore,
  deleteRateCountersBefore,
  deleteSessionsExpiredBefore,
  deleteSearchPoolsExpiredBefore,
  deleteSettledNotificationsBefore,
} from './repository.ts';

const day = 24 * 3600;

/**
 * Expired sessions, verification codes, Telegram link tokens and discovery pools (a week past expiry: see
 * below), and the bookkeeping rows that only matter for a short window.
 * Codes are kept a day past creation because the hourly and daily send limits count them; login failures a
 * day past their window; rate counters two days past their start, since a day's window is read as the previous
 * window all the next day (rateLimits/rateCounter.ts, sliding windows); delivered events and settled notifications a week (SSE resume and
 * support questions need no more).
 */
export async function cleanupExpired({
  db,
  clock,
  signal,
}: Pick<JobContext, 'db' | 'clock' | 'signal'>): Promise<JobCounts> {
  const now = clock.now();
  const dayAgo = addSeconds(now, -day).toISOString();
  const weekAgo = addSeconds(now, -7 * day).toISOString();
  // Between statements (each one deletes on its own): a stopping process ends here, the rest next run.
  const step = async (remove: () => Promise<number>): Promise<number> => {
    signal?.throwIfAborted();
    return remove();
  };
  const sessions = await step(() => deleteSessionsExpiredBefore(db, now.toISOString()));
  const codes = await step(() => deleteCodesCreatedBefore(db, dayAgo));
  const loginFailures = await step(() => deleteLoginFailuresBefore(db, dayAgo));
  const rateCounters = await step(() => deleteRateCountersBefore(db, addSeconds(now, -2 * day).toISOString()));
  const events = await step(() => deleteEventsBefore(db, weekAgo));
  const notifications = await step(() => deleteSettledNotificationsBefore(db, weekAgo));
  const telegramLinks = await step(() => deleteLinkTokensExpiredBefore(db, now.toISOString()));
  const handovers = await step(() => deleteHandoversExpiredBefore(db, now.toISOString()));
  // An expired pool's frontier serves for a week after its fresh scan (search/candidatePool.ts), which was
  // before it expired; after that a search has no use for it, and a user who stopped searching keeps none.
  const frontierGone = new Date(now.getTime() - frontierMaxAgeMs).toISOString();
  const searchPools = await step(() => deleteSearchPoolsExpiredBefore(db, frontierGone));
  return { sessions, codes, loginFailures, rateCounters, events, notifications, telegramLinks, handovers, searchPools };
}
