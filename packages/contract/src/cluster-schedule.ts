import { z } from 'zod';
import { CLUSTER_MESSAGES, MESSAGES } from './messages.js';

// ---------------------------------------------------------------------------------------------
// Weekly start/stop schedule (beyond the spec), in the customer's time zone
// ---------------------------------------------------------------------------------------------

export const WEEK_DAYS = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'] as const;
export type WeekDay = (typeof WEEK_DAYS)[number];
export const SCHEDULE_ACTIONS = ['START', 'STOP'] as const;
export type ScheduleAction = (typeof SCHEDULE_ACTIONS)[number];

export const scheduleRuleSchema = z.object({
  day: z.enum(WEEK_DAYS, { error: CLUSTER_MESSAGES.scheduleInvalid }),
  action: z.enum(SCHEDULE_ACTIONS, { error: CLUSTER_MESSAGES.scheduleInvalid }),
  /** Local time of day, HH:MM (24 h). */
  time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, CLUSTER_MESSAGES.scheduleTimeFormat),
});
export type ScheduleRule = z.infer<typeof scheduleRuleSchema>;

export const putScheduleRequestSchema = z
  .object({
    enabled: z.boolean({ error: MESSAGES.validationFailed }),
    /** IANA time zone; defaults to the userTimeZone header. */
    time_zone: z.string().trim().min(1).max(64).optional(),
    rules: z.array(scheduleRuleSchema).max(28, CLUSTER_MESSAGES.scheduleTooManyRules),
  })
  .superRefine((request, ctx) => {
    // On with no time to act at would be a schedule that never does anything: said on the switch.
    if (request.enabled && request.rules.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['enabled'], message: CLUSTER_MESSAGES.scheduleNeedsRules });
    }
  })
  .meta({ id: 'PutClusterScheduleRequest' });
export type PutScheduleRequest = z.infer<typeof putScheduleRequestSchema>;

export const scheduleResponseSchema = z
  .object({
    deployment_id: z.uuid(),
    enabled: z.boolean(),
    time_zone: z.string(),
    rules: z.array(scheduleRuleSchema),
    /** The next time the schedule will act, if any. */
    next_run_at: z.iso.datetime().nullable(),
    next_action: z.enum(SCHEDULE_ACTIONS).nullable(),
  })
  .meta({ id: 'ClusterSchedule' });
export type ScheduleResponse = z.infer<typeof scheduleResponseSchema>;
