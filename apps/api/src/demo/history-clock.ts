import type { Clock } from '../clock.js';

/**
 * The clock the demo history is written on: it starts months in the past and the script moves it forward to the
 * present, so every module dates what it writes as it would have then. It never goes back: an event planned before
 * the time already reached is a mistake in the script.
 */
export class HistoryClock implements Clock {
  #at: number;

  constructor(start: Date) {
    this.#at = start.getTime();
  }

  now(): Date {
    return new Date(this.#at);
  }

  moveTo(at: Date): void {
    if (at.getTime() < this.#at) throw new Error(`The demo history cannot go back from ${this.now().toISOString()} to ${at.toISOString()}`);
    this.#at = at.getTime();
  }

  advance(ms: number): void {
    this.#at += ms;
  }
}
