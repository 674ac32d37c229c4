import type { Clock } from '../clock.ts';

/** A clock the test moves by hand, for expiry and rate windows. */
export class TestClock implements Clock {
  private current: number;

  constructor(start = new Date()) {
    this.current = start.getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  advance(seconds: number): void {
    this.current += seconds * 1000;
  }
}
