/**
 * A month of an audit log, one page of it: the cluster's log and the account's staff trail alike. Services return
 * these values; the routes answer with `toAuditPageWire`, the one place that writes the wire's page.
 */

/** One event: when, what, in words, and who caused it (a person's e-mail, 'Schedule' or 'System'). */
export interface AuditEntry<E extends string = string> {
  id: string;
  at: Date;
  event: E;
  description: string;
  causedBy: string;
}

/** A page of the month [from, to), newest first. */
export interface AuditPage<E extends string = string> {
  entries: AuditEntry<E>[];
  totalPages: number;
  from: Date;
  to: Date;
}

/** A stored audit row, as both logs keep it. */
interface AuditRow {
  id: string;
  createdAt: Date;
  event: string;
  description: string;
  actorLabel: string;
}

/** The page of `size` rows out of `total` of the month [from, to); the rows' events are the log's own. */
export function auditPageOf<E extends string>(
  rows: AuditRow[],
  total: number,
  size: number,
  month: { from: Date; to: Date },
): AuditPage<E> {
  return {
    entries: rows.map((row) => ({
      id: row.id,
      at: row.createdAt,
      event: row.event as E,
      description: row.description,
      causedBy: row.actorLabel,
    })),
    totalPages: Math.ceil(total / size),
    from: month.from,
    to: month.to,
  };
}

export function toAuditPageWire<E extends string>(page: AuditPage<E>) {
  return {
    page_content: {
      content: page.entries.map((entry) => ({
        audit_id: entry.id,
        date: entry.at.toISOString(),
        event: entry.event,
        description: entry.description,
        caused_by: entry.causedBy,
      })),
      totalPages: page.totalPages,
    },
    start_date: page.from.toISOString(),
    end_date: page.to.toISOString(),
  };
}
