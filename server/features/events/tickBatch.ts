import type { Logger } from '../../logger.ts';

/**
 * How long a process waits after a doorbell before it rings the next: publishes within it share one (issue
 * 42). The issue guessed about 10 ms; its goal of 10 publishes per NOTIFY at 400 publishes a second on one
 * process needs 25 (400 × 0.025). A lone publish after a quiet moment rings at once; under load a
 * cross-process wake waits 12 ms on average, 25 at most, beside the 2–50 ms a delivery takes anyway.
 */
export const doorbellTickMs = 25;

/**
 * Gathers what is handed to it and sends it in one go at most once per tick, never two sends at once. A lone
 * item goes out on the next turn of the event loop (no wait when the last send ended more than a tick ago);
 * items arriving while a send is under way, or within a tick of its end, wait for the next. So a burst of N
 * publishes costs about (burst length / tick) sends, whatever N, and a slow send (a contended NOTIFY) only
 * makes the next batch larger: the rate of sends adapts to what the engine takes.
 */
export class TickBatch<T> {
  private pending: T[] = [];
  private timer: NodeJS.Timeout | undefined;
  private sending: Promise<void> | undefined;
  private lastSendAt = Number.NEGATIVE_INFINITY;
  /** Whether the last send failed: an outage warns once, not once a tick. */
  private failing = false;
  private closed = false;

  constructor(
    private readonly send: (items: T[]) => Promise<void>,
    private readonly logger: Logger,
    private readonly what: string,
    private readonly tickMs = doorbellTickMs,
  ) {}

  /** Nothing once closed: a doorbell then would go out after its connection has closed. */
  add(items: Iterable<T>): void {
    if (this.closed) return;
    for (const item of items) this.pending.push(item);
    this.schedule();
  }

  private schedule(): void {
    if (this.timer || this.sending || this.closed || this.pending.length === 0) return;
    const wait = Math.max(0, this.lastSendAt + this.tickMs - performance.now());
    this.timer = setTimeout(() => void this.run(), wait);
  }

  /** Runs from the timer or from flush(), never during a send (flush waits for it first). */
  private async run(): Promise<void> {
    // flush() may come while a timer is armed (by the end of the send it waited for): that timer must not
    // start a second send, overlapping this one, or fire after close().
    clearTimeout(this.timer);
    this.timer = undefined;
    const items = this.pending;
    this.pending = [];
    if (items.length === 0) return;
    this.sending = this.send(items).then(
      () => {
        if (this.failing) this.logger.info(`event bus: sending ${this.what} again`);
        this.failing = false;
      },
      (error: unknown) => {
        // The rows are stored: a lost doorbell only delays the streams until the listeners' next read by
        // cursor. A down broker fails every tick's send: one warning per outage, not hundreds a second.
        if (!this.failing)
          this.logger.warn({ err: error, count: items.length }, `event bus: could not send ${this.what}`);
        this.failing = true;
      },
    );
    await this.sending;
    this.sending = undefined;
    this.lastSendAt = performance.now();
    this.schedule();
  }

  /** Sends what is pending now and waits for it (a stopping process rings its last doorbell before it closes). */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.sending) await this.sending;
    await this.run();
  }

  /** Sends what is pending, then takes nothing more (the bus is closing). */
  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
    // What was added during that send: the last of it.
    await this.flush();
  }
}
