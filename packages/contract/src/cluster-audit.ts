import { z } from 'zod';
import { pageQuerySchema } from './paging.js';
import { PAGE_SIZES } from './constants.js';
import { CLUSTER_MESSAGES } from './messages.js';
import { moneySchema } from './money-schemas.js';
import { DEPLOYMENT_STEP_LABELS } from './cluster-states.js';
import { monthStartSchema } from './export-years.js';

// ---------------------------------------------------------------------------------------------
// Audit logs
// ---------------------------------------------------------------------------------------------

export const AUDIT_EVENTS = [
  'CLUSTER_CREATE_REQUESTED',
  'CLUSTER_RESOURCES_CREATED',
  'CLUSTER_DEPLOYED',
  'CLUSTER_DEPLOYMENT_FAILED',
  'CLUSTER_START_REQUESTED',
  /** The schedule did not start a cluster (balance or budget): nothing runs, so metering ignores it. */
  'CLUSTER_START_REFUSED',
  'CLUSTER_STARTED',
  'CLUSTER_STOP_REQUESTED',
  'CLUSTER_STOPPED',
  'CLUSTER_DELETE_REQUESTED',
  'CLUSTER_DELETE_APPROVED',
  'CLUSTER_DELETED',
  'CLUSTER_SCHEDULE_CHANGED',
  'CLUSTER_MANAGER_ACCESS_CHANGED',
  'CLUSTER_MANAGER_OPENED',
  'CLUSTER_PASSWORD_RESET',
  'CLUSTER_NETWORK_ACCESS_CHANGED',
  /** A new shape asked for: at once for an offline cluster (its next start), after the engines move for an online one. */
  'CLUSTER_RESIZE_REQUESTED',
  /** An online cluster's query engines reached the new shape: metering charges it from here. */
  'CLUSTER_RESIZED',
] as const;
export type AuditEvent = (typeof AUDIT_EVENTS)[number];

/** Each event in a few words, as the timeline names it. */
export const AUDIT_EVENT_LABELS: Record<AuditEvent, string> = {
  CLUSTER_CREATE_REQUESTED: 'Deployment requested',
  CLUSTER_RESOURCES_CREATED: 'Resources created',
  CLUSTER_DEPLOYED: 'Deployed',
  CLUSTER_DEPLOYMENT_FAILED: 'Deployment failed',
  CLUSTER_START_REQUESTED: 'Start requested',
  CLUSTER_START_REFUSED: 'Start refused',
  CLUSTER_STARTED: 'Started',
  CLUSTER_STOP_REQUESTED: 'Stop requested',
  CLUSTER_STOPPED: 'Stopped',
  CLUSTER_DELETE_REQUESTED: 'Deletion requested',
  CLUSTER_DELETE_APPROVED: 'Deletion approved',
  CLUSTER_DELETED: 'Deleted',
  CLUSTER_SCHEDULE_CHANGED: 'Schedule changed',
  CLUSTER_MANAGER_ACCESS_CHANGED: 'Manager access changed',
  CLUSTER_MANAGER_OPENED: 'Manager opened',
  CLUSTER_PASSWORD_RESET: 'Password changed',
  CLUSTER_NETWORK_ACCESS_CHANGED: 'Network access changed',
  CLUSTER_RESIZE_REQUESTED: 'Resize requested',
  CLUSTER_RESIZED: 'Resized',
};

/** startDate as the console sends it: the first of a month at midnight, e.g. 2026-11-01T00:00:00. */
export const auditLogQuerySchema = pageQuerySchema(PAGE_SIZES.auditLogs).extend({
  startDate: monthStartSchema(CLUSTER_MESSAGES.auditStartDateFormat).optional(),
});

export const auditLogEntrySchema = z
  .object({
    audit_id: z.uuid(),
    date: z.iso.datetime(),
    event: z.enum(AUDIT_EVENTS),
    description: z.string(),
    /** Who caused it: a person's e-mail, 'Schedule' or 'System'. */
    caused_by: z.string(),
  })
  .meta({ id: 'AuditLogEntry' });
export type AuditLogEntry = z.infer<typeof auditLogEntrySchema>;

export const auditLogResponseSchema = z
  .object({
    page_content: z.object({ content: z.array(auditLogEntrySchema), totalPages: z.number().int() }),
    start_date: z.iso.datetime(),
    end_date: z.iso.datetime(),
  })
  .meta({ id: 'AuditLogPage' });
export type AuditLogResponse = z.infer<typeof auditLogResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Timeline (beyond the spec): lifecycle events, deployment steps and each day's charges, newest first
// ---------------------------------------------------------------------------------------------

/** Calendar days (UTC, the days charges are billed in) per page of the timeline. */
export const TIMELINE_DAYS_PER_PAGE = 14;

/** The audit events that are deployment steps: each completes (or fails) one of DEPLOYMENT_STEP_LABELS. */
export const DEPLOYMENT_STEP_EVENTS: readonly AuditEvent[] = [
  'CLUSTER_CREATE_REQUESTED',
  'CLUSTER_RESOURCES_CREATED',
  'CLUSTER_DEPLOYED',
  'CLUSTER_DEPLOYMENT_FAILED',
];

/** `before`: the page ends before this UTC day; absent, it ends with today. */
export const timelineQuerySchema = z.object({ before: z.iso.date({ error: CLUSTER_MESSAGES.timelineBeforeFormat }).optional() });

export const timelineEntrySchema = z
  .discriminatedUnion('kind', [
    z.object({
      kind: z.literal('EVENT'),
      at: z.iso.datetime(),
      event: z.enum(AUDIT_EVENTS),
      description: z.string(),
      caused_by: z.string(),
    }),
    z.object({
      kind: z.literal('DEPLOYMENT_STEP'),
      /** When the step finished, or when it began while it is still in progress. */
      at: z.iso.datetime(),
      step: z.enum(DEPLOYMENT_STEP_LABELS),
      state: z.enum(['success', 'progress', 'error']),
      description: z.string(),
      caused_by: z.string(),
    }),
    /** The day's charges of this cluster so far, from the same rollups as the cost screens. */
    z.object({ kind: z.literal('CHARGE'), amount: moneySchema }),
  ])
  .meta({ id: 'ClusterTimelineEntry' });
export type TimelineEntry = z.infer<typeof timelineEntrySchema>;

export const timelineResponseSchema = z
  .object({
    deployment_id: z.uuid(),
    /** Days with something on them, newest first; within a day the charge first, then events newest first. */
    days: z.array(z.object({ day: z.iso.date(), entries: z.array(timelineEntrySchema) })),
    /** The `before` of the next (older) page; null once the page reaches the cluster's creation. */
    next_before: z.iso.date().nullable(),
  })
  .meta({ id: 'ClusterTimeline' });
export type TimelineResponse = z.infer<typeof timelineResponseSchema>;
