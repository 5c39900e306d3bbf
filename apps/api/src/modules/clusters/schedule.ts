/**
 * Weekly start/stop rules in the customer's own time zone. A rule is a day of the week, a local time
 * and an action; these helpers turn rules into instants (honouring daylight saving through Intl) so the
 * schedule job can act on every rule that fell due since it last looked.
 */
import { WEEK_DAYS, type ScheduleAction, type ScheduleRule, type WeekDay } from '@kumo/contract';
import { DAY, MINUTE } from '../../clock.js';

export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone }).format(0);
    return true;
  } catch {
    return false;
  }
}

interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  weekday: WeekDay;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string) {
  let found = formatters.get(timeZone);
  if (!found) {
    found = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      weekday: 'short',
    });
    formatters.set(timeZone, found);
  }
  return found;
}

export function localParts(at: Date, timeZone: string): LocalParts {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    weekday: String(parts.weekday).toUpperCase().slice(0, 3) as WeekDay,
  };
}

/** The instant a local wall time happens in `timeZone` (a time skipped by daylight saving moves forward). */
export function zonedInstant(year: number, month: number, day: number, hour: number, minute: number, timeZone: string): Date {
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  let guess = wall;
  for (let i = 0; i < 3; i++) {
    const seen = localParts(new Date(guess), timeZone);
    const seenWall = Date.UTC(seen.year, seen.month - 1, seen.day, seen.hour, seen.minute);
    const drift = seenWall - wall;
    if (drift === 0) break;
    guess -= drift;
  }
  return new Date(guess);
}

export interface Occurrence {
  at: Date;
  action: ScheduleAction;
}

/** Every occurrence of the rules in (from, to], oldest first; at most 8 days are looked at. */
export function occurrencesBetween(rules: ScheduleRule[], timeZone: string, from: Date, to: Date): Occurrence[] {
  const start = new Date(Math.max(from.getTime(), to.getTime() - 8 * DAY));
  const found: Occurrence[] = [];
  // Walk local calendar days from the day before `start` to the day after `to`.
  for (let t = start.getTime() - DAY; t <= to.getTime() + DAY; t += DAY) {
    const day = localParts(new Date(t), timeZone);
    for (const rule of rules) {
      if (rule.day !== day.weekday) continue;
      const [hour, minute] = rule.time.split(':').map(Number) as [number, number];
      const at = zonedInstant(day.year, day.month, day.day, hour, minute, timeZone);
      if (at > from && at <= to && at >= start) found.push({ at, action: rule.action });
    }
  }
  const unique = new Map(found.map((occurrence) => [`${occurrence.at.getTime()}:${occurrence.action}`, occurrence]));
  return [...unique.values()].sort((a, b) => a.at.getTime() - b.at.getTime());
}

/** The next occurrence after `now` within a week, if any rule exists. */
export function nextOccurrence(rules: ScheduleRule[], timeZone: string, now: Date): Occurrence | undefined {
  return occurrencesBetween(rules, timeZone, now, new Date(now.getTime() + 7 * DAY + MINUTE))[0];
}

export const sortRules = (rules: ScheduleRule[]) =>
  [...rules].sort((a, b) => WEEK_DAYS.indexOf(a.day) - WEEK_DAYS.indexOf(b.day) || a.time.localeCompare(b.time));
