import { z } from 'zod';
import { moneySchema } from './money-schemas.js';
import { CLUSTER_STATUSES } from './cluster-states.js';

// ---------------------------------------------------------------------------------------------
// Sizes of the query engines and how many of them run (docs/clusters.md, Sizes)
// ---------------------------------------------------------------------------------------------

export const CLUSTER_SIZE_NAMES = ['XS', 'S', 'M', 'L', 'XL'] as const;
export type ClusterSize = (typeof CLUSTER_SIZE_NAMES)[number];

export interface ClusterSizeSpec {
  size: ClusterSize;
  instance_type: string;
  cores: number;
  memory_gib: number;
}

/** Each size's query-engine instance, smallest first. M is the shape every cluster had before sizes existed. */
export const CLUSTER_SIZES: readonly ClusterSizeSpec[] = [
  { size: 'XS', instance_type: 'r6i.xlarge', cores: 4, memory_gib: 32 },
  { size: 'S', instance_type: 'r6i.2xlarge', cores: 8, memory_gib: 64 },
  { size: 'M', instance_type: 'r6i.4xlarge', cores: 16, memory_gib: 128 },
  { size: 'L', instance_type: 'r6i.8xlarge', cores: 32, memory_gib: 256 },
  { size: 'XL', instance_type: 'r6i.16xlarge', cores: 64, memory_gib: 512 },
];

export const DEFAULT_CLUSTER_SIZE: ClusterSize = 'M';
/** How many query engines a cluster may run: also its capacity level (spec: 1 low … 5 full). */
export const QUERY_ENGINE_LIMITS = { min: 1, max: 5, default: 5 } as const;

export const sizeSpecOf = (size: ClusterSize): ClusterSizeSpec => CLUSTER_SIZES.find((s) => s.size === size)!;
/** Cores of all the query engines of a shape: what metering charges for the QUERY_ENGINES dimension. */
export const queryEngineCores = (size: ClusterSize, queryEngines: number) => sizeSpecOf(size).cores * queryEngines;
/** A shape as people read it: "L × 3". */
export const shapeLabel = (size: string, queryEngines: number) => `${size} × ${queryEngines}`;

export const CLUSTER_SIZE_MESSAGES = {
  sizeUnknown: `Size must be one of ${CLUSTER_SIZE_NAMES.join(', ')}.`,
  queryEnginesRange: `Query engines must be a whole number from ${QUERY_ENGINE_LIMITS.min} to ${QUERY_ENGINE_LIMITS.max}.`,
  nothingToChange: 'The cluster already has this size and number of query engines: nothing to change.',
  resizeNotAllowed: 'The cluster can be resized only when it is online or offline.',
  resizeInProgress: 'The cluster is being resized; wait until it is done.',
  resizeStarted: 'The cluster is being resized.',
  resizeSaved: 'The new size is saved: the next start brings it up.',
} as const;

export const clusterSizeSchema = z.enum(CLUSTER_SIZE_NAMES, { error: CLUSTER_SIZE_MESSAGES.sizeUnknown });

/** In a body: a number. */
export const queryEnginesSchema = z
  .number({ error: CLUSTER_SIZE_MESSAGES.queryEnginesRange })
  .int(CLUSTER_SIZE_MESSAGES.queryEnginesRange)
  .min(QUERY_ENGINE_LIMITS.min, CLUSTER_SIZE_MESSAGES.queryEnginesRange)
  .max(QUERY_ENGINE_LIMITS.max, CLUSTER_SIZE_MESSAGES.queryEnginesRange);

/** In a query string: its digits. */
const queryEnginesTextSchema = z
  .string({ error: CLUSTER_SIZE_MESSAGES.queryEnginesRange })
  .regex(/^\d{1,2}$/, CLUSTER_SIZE_MESSAGES.queryEnginesRange)
  .transform(Number)
  .pipe(queryEnginesSchema);

export const clusterSizesResponseSchema = z
  .array(z.object({ size: clusterSizeSchema, instance_type: z.string(), cores: z.number().int(), memory_gib: z.number().int() }))
  .meta({ id: 'ClusterSizes' });
export type ClusterSizesResponse = z.infer<typeof clusterSizesResponseSchema>;

const shapeQuery = { size: clusterSizeSchema, query_engines: queryEnginesTextSchema };
/** A shape in a query string that may be left out (today's M × 5 then). */
export const optionalShapeQuery = { size: clusterSizeSchema.optional(), query_engines: queryEnginesTextSchema.optional() };

export const pricePreviewQuerySchema = z.object({
  subscription_id: z.uuid({ error: 'subscription_id must be a subscription id.' }),
  ...shapeQuery,
});
export type PricePreviewQuery = z.input<typeof pricePreviewQuerySchema>;

/** Days the balance lasts, to a tenth; null when nothing is spent. */
const runwayDaysSchema = z.number().nullable();

export const pricePreviewSchema = z
  .object({
    /** A running cluster of this shape per billable hour, at the customer's rates. */
    hourly_cost: moneySchema,
    /** That hour over a month of 730 hours. */
    monthly_cost_estimate: moneySchema,
    /** How long the subscription's balance lasts with its clusters and this one running. */
    runway_days: runwayDaysSchema,
  })
  .meta({ id: 'ClusterPricePreview' });
export type PricePreview = z.infer<typeof pricePreviewSchema>;

export const resizeQuerySchema = z.object(shapeQuery);

const shapeCostSchema = z.object({ size: clusterSizeSchema, query_engines: z.number().int(), hourly_cost: moneySchema });

export const resizePreviewSchema = z
  .object({
    current: shapeCostSchema,
    proposed: shapeCostSchema,
    runway_days_current: runwayDaysSchema,
    runway_days_proposed: runwayDaysSchema,
  })
  .meta({ id: 'ClusterResizePreview' });
export type ResizePreview = z.infer<typeof resizePreviewSchema>;

export const resizeRequestSchema = z
  .object({ size: clusterSizeSchema, query_engines: queryEnginesSchema })
  .meta({ id: 'ResizeClusterRequest' });
export type ResizeRequest = z.input<typeof resizeRequestSchema>;

export const resizeResponseSchema = z
  .object({
    deployment_id: z.uuid(),
    status: z.enum(CLUSTER_STATUSES),
    size: clusterSizeSchema,
    query_engines: z.number().int(),
    /** ONLINE: the engines are being added or replaced now; OFFLINE: the next start brings the new shape. */
    resizing: z.boolean(),
    message: z.string(),
  })
  .meta({ id: 'ResizeClusterResult' });
export type ResizeResponse = z.infer<typeof resizeResponseSchema>;
