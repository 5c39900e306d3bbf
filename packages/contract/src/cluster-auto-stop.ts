// Idle auto-stop and restart when funded, per cluster (docs/clusters.md "Idle auto-stop", "Restart when funded").
import { z } from 'zod';
import { moneySchema } from './money-schemas.js';

export const AUTO_STOP_LIMITS = {
  minIdleMinutes: 10,
  maxIdleMinutes: 1440,
  /** What a new cluster starts with; clusters made before auto-stop existed have it off. */
  defaultIdleMinutes: 60,
  /** How far back the sources that kept a cluster awake are counted. */
  wakeSourceHours: 24,
} as const;

export const AUTO_STOP_MESSAGES = {
  idleMinutesRange: 'Enter idle minutes as a whole number from 10 to 1,440, or turn auto-stop off.',
  restartFlag: 'Choose yes or no.',
  saved: 'Auto-stop settings saved.',
} as const;

/** Off (null), or whole minutes from 10 to 1,440. */
export const idleMinutesSchema = z
  .number({ error: AUTO_STOP_MESSAGES.idleMinutesRange })
  .int(AUTO_STOP_MESSAGES.idleMinutesRange)
  .min(AUTO_STOP_LIMITS.minIdleMinutes, AUTO_STOP_MESSAGES.idleMinutesRange)
  .max(AUTO_STOP_LIMITS.maxIdleMinutes, AUTO_STOP_MESSAGES.idleMinutesRange)
  .nullable();

/** PUT /api/cluster/auto-stop/{deploymentId}: restart_when_funded is left as it is when not given. */
export const putAutoStopRequestSchema = z
  .object({
    idle_minutes: idleMinutesSchema,
    restart_when_funded: z.boolean({ error: AUTO_STOP_MESSAGES.restartFlag }).optional(),
  })
  .meta({ id: 'PutClusterAutoStopRequest' });
export type PutAutoStopRequest = z.infer<typeof putAutoStopRequestSchema>;

export const WAKE_SOURCES = ['CONSOLE', 'ENDPOINT'] as const;

/** Who kept the cluster awake: its queries over the last 24 hours, grouped by source, address, user and client. */
export const wakeSourceSchema = z
  .object({
    source: z.enum(WAKE_SOURCES),
    client_address: z.string().nullable(),
    user: z.string(),
    user_agent: z.string().nullable(),
    queries: z.number().int(),
    last_at: z.iso.datetime(),
  })
  .meta({ id: 'ClusterWakeSource' });
export type WakeSource = z.infer<typeof wakeSourceSchema>;

export const autoStopResponseSchema = z
  .object({
    deployment_id: z.uuid(),
    /** null: auto-stop is off. */
    idle_minutes: z.number().int().nullable(),
    restart_when_funded: z.boolean(),
    /** The newest query that counts as activity, null when there was none. */
    last_activity_at: z.iso.datetime().nullable(),
    /** When auto-stop stops the cluster if nothing happens; null unless it is on and the cluster is online. */
    stops_at: z.iso.datetime().nullable(),
    wake_sources: z.array(wakeSourceSchema),
    /** What the hours auto-stop kept the cluster stopped this month would have cost running, beyond its storage. */
    saved_this_month: moneySchema,
  })
  .meta({ id: 'ClusterAutoStop' });
export type AutoStopResponse = z.infer<typeof autoStopResponseSchema>;
