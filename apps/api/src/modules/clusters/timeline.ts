/** The clusters' part of a cluster's timeline: which UTC days a page covers, and the events it reads on them. */
import { TIMELINE_DAYS_PER_PAGE, type AuditEvent } from '@kumo/contract';

const DAY_MS = 86_400_000;
const dayOf = (at: Date) => at.toISOString().slice(0, 10);
const startOfDay = (day: string) => new Date(`${day}T00:00:00.000Z`);

export interface TimelineEvent {
  at: Date;
  event: AuditEvent;
  description: string;
  causedBy: string;
}

/**
 * The UTC days one page covers, [from, to): the page ends before `before` (or with today) and never starts before
 * the cluster's creation day; `nextBefore` is where the older page ends, null when this one reaches the creation.
 */
export function timelineWindow(createdAt: Date, now: Date, before?: string) {
  const tomorrow = startOfDay(dayOf(now)).getTime() + DAY_MS;
  const to = Math.min(before ? startOfDay(before).getTime() : tomorrow, tomorrow);
  const first = startOfDay(dayOf(createdAt)).getTime();
  const from = Math.max(to - TIMELINE_DAYS_PER_PAGE * DAY_MS, first);
  return { from: new Date(from), to: new Date(Math.max(to, from)), nextBefore: from > first ? dayOf(new Date(from)) : null };
}
