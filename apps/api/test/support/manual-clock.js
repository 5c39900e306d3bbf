/** A clock that only moves when told to. */
export class ManualClock {
    #now;
    constructor(start = '2026-01-15T10:00:00Z') {
        this.#now = new Date(start).getTime();
    }
    now() {
        return new Date(this.#now);
    }
    advance(ms) {
        this.#now += ms;
    }
    set(at) {
        this.#now = new Date(at).getTime();
    }
}
//# sourceMappingURL=manual-clock.js.map