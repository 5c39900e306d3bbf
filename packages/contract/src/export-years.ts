import { z } from 'zod';

/**
 * The years an export, a month's table or an audit log may ask for: any date outside them is a typing mistake, not a
 * period of use.
 */
export const EXPORT_YEARS = { first: 2000, last: 2100 } as const;

/** The one refusal of a date outside EXPORT_YEARS, wherever a date is asked for. */
export const YEAR_RANGE_MESSAGE = `Use a date in the years ${EXPORT_YEARS.first} to ${EXPORT_YEARS.last}.`;

/** Whether a YYYY-… text's year is in EXPORT_YEARS. */
export function inExportYears(text: string): boolean {
  const year = Number(text.slice(0, 4));
  return year >= EXPORT_YEARS.first && year <= EXPORT_YEARS.last;
}

/** The first of a month, YYYY-MM-01, at midnight or without a time, as the month tables and audit logs take it. */
const MONTH_START = /^\d{4}-(0[1-9]|1[0-2])-01(T00:00:00(\.000)?Z?)?$/;

/** `startDate` of a month's table or audit log: the first of a month in EXPORT_YEARS; `formatMessage` when it is none. */
export function monthStartSchema(formatMessage: string) {
  return (
    z
      .string()
      .regex(MONTH_START, formatMessage)
      // A text that is no first of a month has one message, the format's.
      .refine((text) => !MONTH_START.test(text) || inExportYears(text), YEAR_RANGE_MESSAGE)
  );
}
