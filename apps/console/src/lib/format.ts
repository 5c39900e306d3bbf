import dayjs from 'dayjs';
import { DATE_FORMAT, MONTH_FORMAT } from '@kumo/contract';

const usdFormatters = new Map<number, Intl.NumberFormat>();

function usdFormatter(fractionDigits: number): Intl.NumberFormat {
  let formatter = usdFormatters.get(fractionDigits);
  if (!formatter) {
    formatter = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: 'USD',
      minimumFractionDigits: fractionDigits,
      maximumFractionDigits: fractionDigits,
    });
    usdFormatters.set(fractionDigits, formatter);
  }
  return formatter;
}

/** US dollars, two decimals by default; negatives as -$ (amounts may arrive as exact decimal strings). */
export function formatUsd(amount: number | string, fractionDigits = 2): string {
  const value = typeof amount === 'string' ? Number(amount) : amount;
  const formatted = usdFormatter(fractionDigits).format(Math.abs(value));
  // Compare the rounded text, so -0.001 does not show as -$0.00.
  const isNegative = value < 0 && /[1-9]/.test(formatted);
  return isNegative ? `-${formatted}` : formatted;
}

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
