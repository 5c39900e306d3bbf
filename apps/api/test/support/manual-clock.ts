import type { Clock } from '../../src/clock.js';

/** A clock that only moves when told to. */
export class ManualClock implements Clock {
  #now: number;
  constructor(start: Date | string = '2026-01-15T10:00:00Z') {
    this.#now = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.#now);
  }
  advance(ms: number): void {
    this.#now += ms;
  }
  set(at: Date | string): void {
    this.#now = new Date(at).getTime();
  }
}
