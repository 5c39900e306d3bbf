let zone: string | undefined;

/** Temporal where the browser has it (Chromium 144 and later); the type is declared here until TypeScript's lib has it. */
declare const Temporal: { Now: { timeZoneId(): string } } | undefined;

/**
 * The browser's time zone, read once. Temporal reads it without Intl: the first Intl formatter of a page loads the
 * locale data, a long task on a slow phone just when the first screen renders.
 */
export function browserTimeZone(): string {
  zone ??= typeof Temporal === 'undefined' ? Intl.DateTimeFormat().resolvedOptions().timeZone : Temporal.Now.timeZoneId();
  return zone;
}
