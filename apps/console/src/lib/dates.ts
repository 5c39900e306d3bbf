import dayjs from 'dayjs';
import { DATE_FORMAT, MONTH_FORMAT } from '@kumo/contract';

// Every date and time the console shows is formatted here. The contract's DATE_FORMAT and MONTH_FORMAT are
// the spec's; a day that the server means as a UTC calendar date (a YYYY-MM-DD, a rate's effective day) is read
// as such, so no browser time zone moves it a day.

/** Dates and times as 'MMM D, YYYY h:mm A' in the browser's zone; empty when there is no valid value. */
export function formatDateTime(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined) return '';
  const date = dayjs(value);
  return date.isValid() ? date.format(DATE_FORMAT) : '';
}

/** Months as 'MMM, YYYY'. */
export function formatMonth(value: string | number | Date): string {
  const date = dayjs(value);
  return date.isValid() ? date.format(MONTH_FORMAT) : '';
}

/** 'MMM, YYYY' for a startDate or a YYYY-MM-DD day, read as a calendar date. */
export function formatMonthOfDay(day: string): string {
  return dayjs(day.slice(0, 10)).format(MONTH_FORMAT);
}

/** 'Nov 3' for a YYYY-MM-DD day, without shifting it through the browser's zone. */
export function formatShortDay(day: string): string {
  return dayjs(day.slice(0, 10)).format('MMM D');
}

/** 'Tuesday, Nov 3, 2026' for a YYYY-MM-DD day (a timeline's day heading). */
export function formatLongDay(day: string): string {
  return dayjs(day).format('dddd, MMM D, YYYY');
}

/** 'Nov 3, 2026' for an instant, said in UTC: rate changes take effect at midnight UTC. */
export function formatUtcDate(iso: string): string {
  return new Date(iso).toLocaleDateString('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric', year: 'numeric' });
}

/** Today as YYYY-MM-DD in the browser's zone, as a date input takes it. */
export function todayInputValue(): string {
  return dayjs().format('YYYY-MM-DD');
}

/** Today as YYYY-MM-DD in UTC. */
export function todayUtc(): string {
  return new Date().toISOString().slice(0, 10);
}

/** The first rates of every customer start at the epoch: said as "the start", never as Jan 1, 1970. */
const isStartOfTime = (iso: string) => new Date(iso).getTime() <= 24 * 60 * 60 * 1000;

/** When rates came into force: "since the start" for the first ones, else "since Nov 1, 2026 12:00 AM". */
export function formatInForceSince(iso: string): string {
  return isStartOfTime(iso) ? 'since the start' : `since ${formatDateTime(iso)}`;
}

/**
 * A rate period: "From Nov 26, 2026 12:00 AM (scheduled)" when it has not begun, "Nov 1, 2026 12:00 AM – now" while it
 * runs, "Since the start" / "From the start to …" for the first rates.
 */
export function formatRatePeriod(startIso: string, endIso: string | null, now: number = Date.now()): string {
  const end = endIso ? formatDateTime(endIso) : null;
  if (new Date(startIso).getTime() > now) return `From ${formatDateTime(startIso)}${end ? ` to ${end}` : ''} (scheduled)`;
  if (isStartOfTime(startIso)) return end ? `From the start to ${end}` : 'Since the start';
  return `${formatDateTime(startIso)} – ${end ?? 'now'}`;
}
