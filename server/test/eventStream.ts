export interface ReceivedEvent {
  /** NaN for an event without an `id:` line (it leaves the last id as it was, as in a browser). */
  id: number;
  type: string;
  data: unknown;
}

/** A real Server-Sent Events client over fetch: parses the stream as a browser's EventSource would. */
export class EventStreamClient {
  readonly events: ReceivedEvent[] = [];
  /** The last `retry:` the server sent (ms): when a browser would reconnect after the stream ends. */
  retryMs: number | undefined;
  /** Every block as it came (comments included), first to last. */
  readonly frames: string[] = [];
  /**
   * The EventSource's last event id: set by every block with an `id:`, one without `data:` included (which
   * dispatches no event), as a browser sets it; what a browser sends as Last-Event-ID when it reconnects.
   */
  private browserLastId = '';
  private tellFirstFrame: (frame: string) => void = () => undefined;
  /** The first block the server sent (the opening frame). */
  readonly firstFrame = new Promise<string>((resolve) => (this.tellFirstFrame = resolve));
  private readonly controller = new AbortController();
  private readonly waiters: { test: (e: ReceivedEvent) => boolean; resolve: (e: ReceivedEvent) => void }[] = [];
  /** Settles when the server ends the stream (or close() aborts it). */
  ended: Promise<void> = Promise.resolve();
  private constructor() {}

  static async open(url: string, headers: Record<string, string> = {}): Promise<EventStreamClient> {
    const client = new EventStreamClient();
    const res = await fetch(url, {
      headers: { Accept: 'text/event-stream', ...headers },
      signal: client.controller.signal,
    });
    if (res.status !== 200 || !res.body) throw new Error(`event stream answered ${res.status}`);
    client.ended = client.read(res.body);
    return client;
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of body) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          this.frames.push(block);
          if (this.frames.length === 1) this.tellFirstFrame(block);
          const fields = Object.fromEntries(
            block
              .split('\n')
              .filter((line) => !line.startsWith(':') && line.includes(':'))
              .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]),
          ) as Record<string, string>;
          if (fields.retry !== undefined && /^\d+$/.test(fields.retry)) this.retryMs = Number(fields.retry);
          if (fields.id !== undefined && !fields.id.includes('\0')) this.browserLastId = fields.id;
          if (fields.data === undefined) continue;
          const event = {
            id: Number(fields.id),
            type: fields.event ?? 'message',
            data: JSON.parse(fields.data) as unknown,
          };
          this.events.push(event);
          for (const waiter of [...this.waiters]) {
            if (waiter.test(event)) {
              this.waiters.splice(this.waiters.indexOf(waiter), 1);
              waiter.resolve(event);
            }
          }
        }
      }
    } catch {
      // Aborted by close(): the stream ends here.
    }
  }

  waitFor(test: (e: ReceivedEvent) => boolean, timeoutMs = 5000): Promise<ReceivedEvent> {
    const found = this.events.find(test);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('event not received in time')), timeoutMs);
      this.waiters.push({
        test,
        resolve: (e) => {
          clearTimeout(timer);
          resolve(e);
        },
      });
    });
  }

  /** What a browser would send as Last-Event-ID: the last id received (blocks without one leave it). */
  lastId(): number {
    return Number(this.browserLastId);
  }

  close(): void {
    this.controller.abort();
  }
}
