/** Dates in what the portal writes (mails, notices, PDFs): the product's 'MMM D, YYYY h:mm A', as the console shows them. */

/** 'MMM D, YYYY h:mm A' in a time zone, with the zone's short name ("Nov 28, 2026 8:41 PM UTC"); UTC when the zone is unknown. */
export function formatDateTime(at: Date, timeZone = 'UTC'): string {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      hour12: true,
      timeZoneName: 'short',
    });
  } catch {
    return formatDateTime(at, 'UTC');
  }
  const part = (type: Intl.DateTimeFormatPartTypes) => format.formatToParts(at).find((p) => p.type === type)?.value ?? '';
  return `${part('month')} ${part('day')}, ${part('year')} ${part('hour')}:${part('minute')} ${part('dayPeriod')} ${part('timeZoneName')}`;
}
