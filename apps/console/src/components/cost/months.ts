import { formatMonthOfDay, formatShortDay } from '../../lib/dates';

/** How many months the cost pickers offer: the current one and the two before it (spec section 9). */
export const COST_MONTHS_OFFERED = 3;

/**
 * The API's startDate for the month `monthsBack` before the one holding `now`: 'YYYY-MM-01T00:00:00'.
 * Billing months are UTC months (the server keys its rollups by UTC day), whatever the browser's zone.
 */
export function utcMonthStart(now: Date = new Date(), monthsBack = 0): string {
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - monthsBack, 1));
  return `${first.toISOString().slice(0, 10)}T00:00:00`;
}

/** 'MMM, YYYY' for a startDate or a YYYY-MM-DD day, read as a UTC calendar date. */
export function monthLabel(startDate: string): string {
  return formatMonthOfDay(startDate);
}

/** The months offered, newest first, as {value: startDate, label: 'MMM, YYYY'}. */
export function costMonthOptions(now: Date = new Date(), count = COST_MONTHS_OFFERED): { value: string; label: string }[] {
  return Array.from({ length: count }, (_, index) => {
    const value = utcMonthStart(now, index);
    return { value, label: monthLabel(value) };
  });
}

/** 'Nov 3' for a YYYY-MM-DD day, without shifting it through the browser's zone. */
export function dayLabel(day: string): string {
  return formatShortDay(day);
}
