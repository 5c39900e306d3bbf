import { describe, expect, it } from 'vitest';
import { formatLongDay, formatMonthOfDay, formatShortDay, formatUtcDate } from './dates';

describe('dates said as calendar days', () => {
  it('names a YYYY-MM-DD day, its month and a timeline heading without moving it through a time zone', () => {
    expect(formatShortDay('2026-11-03')).toBe('Nov 3');
    expect(formatMonthOfDay('2026-11-01T00:00:00')).toBe('Nov, 2026');
    expect(formatLongDay('2026-11-03')).toBe('Tuesday, Nov 3, 2026');
  });

  it('says an instant as its UTC date (rates take effect at midnight UTC)', () => {
    expect(formatUtcDate('2026-12-01T00:00:00.000Z')).toBe('Dec 1, 2026');
  });
});
