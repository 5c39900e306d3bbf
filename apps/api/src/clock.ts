/** The one source of time: rules read it so tests can move time instead of sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** The first instant of the next UTC calendar day. */
export function endOfUtcDay(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1));
}

/** The UTC month a startDate ('YYYY-MM-01…') names, or the current one: [from, to). */
export function monthOf(startDate: string | undefined, now: Date): { from: Date; to: Date } {
  const [year, month] = startDate ? startDate.slice(0, 7).split('-').map(Number) : [now.getUTCFullYear(), now.getUTCMonth() + 1];
  return { from: new Date(Date.UTC(year!, month! - 1, 1)), to: new Date(Date.UTC(year!, month, 1)) };
}
