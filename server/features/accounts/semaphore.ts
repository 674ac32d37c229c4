/** A counting semaphore: runs at most `limit` tasks at once, the others wait in arrival order. */
export class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError('limit must be a positive integer');
  }

  get pending(): number {
    return this.waiting.length;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active += 1;
    try {
      return await task();
    } finally {
      const nextInLine = this.waiting.shift();
      // The slot passes straight to the next waiter, so `active` never dips and lets a newcomer jump the line.
      if (nextInLine) nextInLine();
      else this.active -= 1;
    }
  }
}
