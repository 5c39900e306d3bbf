// In its own module, free of dayjs, for the sign-in screen's first download.
export { formatUsd } from './format-usd';

/** The first letters of the first two words of a name, upper-cased. */
export function initials(name: string): string {
  return name
    .trim()
    .split(/\s+/)
    .slice(0, 2)
    .map((word) => word.charAt(0).toUpperCase())
    .join('');
}

/** A rate in dollars with at least two decimals and at most four (its own precision): 0.1 → "$0.10", 0.0725 → "$0.0725". */
export function formatRate(rate: number): string {
  const decimals = (String(rate).split('.')[1] ?? '').length;
  return `$${rate.toFixed(Math.min(4, Math.max(2, decimals)))}`;
}
