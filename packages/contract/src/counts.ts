/** A count with its unit, singular for one: "1 hour", "2 hours", "0 days". For every duration the portal writes out. */
export function countOf(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/** What "$X per hour at your rates; your balance covers about N hours" says. */
export const costPreviewText = (hourlyRate: string, coversHours: number) =>
  `${hourlyRate} per hour at your rates; your balance covers about ${countOf(coversHours, 'hour')}`;

/** The quiet note beside the cost preview when the cloud is the demo's faster simulated one. */
export const fasterCloudText = (timeScale: number) =>
  `The demo cloud runs ${timeScale} times faster than real time: a billable hour passes in ${
    60 / timeScale >= 1 ? countOf(Math.round((60 / timeScale) * 10) / 10, 'minute') : countOf(Math.round(3600 / timeScale), 'second')
  }.`;

/** Runway in words ("about 6 days"), for subscription details and home. */
export function runwayText(hours: number | null): string | null {
  if (hours === null) return null;
  if (hours < 1) return 'less than an hour';
  if (hours < 48) return `about ${countOf(Math.floor(hours), 'hour')}`;
  return `about ${countOf(Math.floor(hours / 24), 'day')}`;
}
