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
