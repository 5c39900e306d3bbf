import { describe, expect, it } from 'vitest';
import { hoursUntilStop } from './runway.js';

describe('hoursUntilStop', () => {
  it('counts down to minus the overdue limit at the hourly rate, to a tenth of an hour', () => {
    expect(hoursUntilStop(10_000, 0, 655)).toBe(15.3);
    expect(hoursUntilStop(-300, 10_000, 655)).toBe(14.8);
    // Minutes left are not "already there".
    expect(hoursUntilStop(50_000, 0, 2_358_000)).toBe(0.1);
  });

  it('is 0 once the balance is at or past the limit, and unknown while nothing is charged', () => {
    expect(hoursUntilStop(-10_000, 10_000, 655)).toBe(0);
    expect(hoursUntilStop(-10_001, 10_000, 655)).toBe(0);
    expect(hoursUntilStop(10_000, 0, 0)).toBeNull();
  });
});
