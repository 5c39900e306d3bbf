import dayjs from 'dayjs';
import { DATE_FORMAT, MONTH_FORMAT } from '@kumo/contract';

// In its own module, free of dayjs, for the sign-in screen's first download.
export { formatUsd } from './format-usd';

/** Dates and times as 'MMM D, YYYY h:mm A'; empty when there is no valid value. */
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

/** The first letters of the first two words of a name, upper-cased. */
export function initials(name: string): string {
  return name
    .trim()
    .split(/\s+/)
    .slice(0, 2)
    .map((word) => word.charAt(0).toUpperCase())
    .join('');
}
