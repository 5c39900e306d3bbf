/** A count with its unit, singular for one: "1 hour", "2 hours", "0 days". For every duration the portal writes out. */
export function countOf(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}
