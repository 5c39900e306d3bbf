/** How values read in a table: money as US dollars with cents, dates in UTC, nothing left blank by accident. */

const DOLLARS = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** An amount the API gives in dollars (at most two decimals), as $1,234.00; a negative one as -$12.50. */
export function money(amount: number | null | undefined): string {
  if (amount === null || amount === undefined) return '-';
  return DOLLARS.format(amount);
}

/** A timestamp of the API as `2026-11-29 08:05 UTC`. */
export function dateTime(iso: string | null | undefined): string {
  if (!iso) return '-';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** A timestamp's day, `2026-11-29`. */
export function day(iso: string | null | undefined): string {
  return iso ? iso.slice(0, 10) : '-';
}

export function text(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined || value === '') return '-';
  return String(value);
}

export function yesNo(value: boolean): string {
  return value ? 'yes' : 'no';
}
