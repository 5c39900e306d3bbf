import { describe, expect, it } from 'vitest';
import { localParts, nextOccurrence, occurrencesBetween, zonedInstant } from './schedule.js';

describe('weekly schedule times', () => {
  it('turns a local wall time into the right instant across daylight saving', () => {
    // New York: EST (UTC-5) in January, EDT (UTC-4) in July.
    expect(zonedInstant(2026, 1, 13, 19, 0, 'America/New_York').toISOString()).toBe('2026-01-14T00:00:00.000Z');
    expect(zonedInstant(2026, 7, 14, 19, 0, 'America/New_York').toISOString()).toBe('2026-07-14T23:00:00.000Z');
    expect(zonedInstant(2026, 3, 10, 8, 30, 'Asia/Kolkata').toISOString()).toBe('2026-03-10T03:00:00.000Z');
    expect(localParts(new Date('2026-03-10T03:00:00Z'), 'Asia/Kolkata')).toMatchObject({ weekday: 'TUE', hour: 8, minute: 30 });
  });

  it('finds the occurrences due in a window, once each, oldest first', () => {
    const rules = [
      { day: 'TUE' as const, action: 'STOP' as const, time: '19:00' },
      { day: 'WED' as const, action: 'START' as const, time: '08:00' },
    ];
    const found = occurrencesBetween(rules, 'Europe/Berlin', new Date('2026-03-09T00:00:00Z'), new Date('2026-03-12T00:00:00Z'));
    expect(found.map((o) => `${o.action}@${o.at.toISOString()}`)).toEqual([
      'STOP@2026-03-10T18:00:00.000Z',
      'START@2026-03-11T07:00:00.000Z',
    ]);
    // The window is open at its start: an occurrence exactly at `from` was handled by the previous check.
    expect(occurrencesBetween(rules, 'Europe/Berlin', new Date('2026-03-10T18:00:00Z'), new Date('2026-03-10T20:00:00Z'))).toEqual([]);
    expect(nextOccurrence(rules, 'Europe/Berlin', new Date('2026-03-10T18:00:00Z'))?.action).toBe('START');
    expect(nextOccurrence([], 'UTC', new Date())).toBeUndefined();
  });
});
