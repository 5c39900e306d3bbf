let zone: string | undefined;

/** The browser's time zone, read once: each read builds a date formatter, slow on a phone. */
export function browserTimeZone(): string {
  zone ??= Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone;
}
