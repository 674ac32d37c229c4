import type { Kysely } from 'kysely';
import type { Database, UserId } from '../../../db/schema.ts';
import type { Clock } from '../../clock.ts';
import type { Logger } from '../../logger.ts';
import { setOnlineUntil } from './repository.ts';

/**
 * Whether a user has the app open, as the notification worker reads it (users.online_until): renewed by
 * every open stream's heartbeat, long enough to outlast two missed ones, and cleared when the user's last
 * stream in this process closes.
 */
export class Presence {
  /** Open streams per user in this process: "offline" is written only when the last one closes. */
  private readonly openStreams = new Map<number, number>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly onlineForMs: number,
  ) {}

  async opened(userId: UserId): Promise<void> {
    this.openStreams.set(userId, (this.openStreams.get(userId) ?? 0) + 1);
    await this.mark(userId, true);
  }

  beat(userId: UserId): void {
    void this.mark(userId, true);
  }

  closed(userId: UserId): void {
    const left = (this.openStreams.get(userId) ?? 1) - 1;
    if (left > 0) {
      this.openStreams.set(userId, left);
      return;
    }
    this.openStreams.delete(userId);
    void this.mark(userId, false);
  }

  private mark(userId: UserId, online: boolean): Promise<void> {
    const until = new Date(this.clock.now().getTime() + (online ? this.onlineForMs : 0)).toISOString();
    return setOnlineUntil(this.db, userId, until).catch((error: unknown) => this.logger.warn({ err: error }, 'event stream: presence not written'));
  }
}
