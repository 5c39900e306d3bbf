import type { Clock } from '../../src/clock.js';
/** A clock that only moves when told to. */
export declare class ManualClock implements Clock {
    #private;
    constructor(start?: Date | string);
    now(): Date;
    advance(ms: number): void;
    set(at: Date | string): void;
}
