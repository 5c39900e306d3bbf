/**
 * What one billable hour of a cluster uses, per dimension, from the fixed node layout, and the default rate
 * card (docs/decisions/0014-default-rate-card.md and 0028). Rates are held as US dollars × 10,000 (4 decimals, spec §9).
 */
import { HOURS_PER_BILLING_MONTH, METERING_DIMENSIONS, type MeteringDimension } from '@kumo/contract';
import {
  CLUSTER_CACHE_STORAGE_GB,
  CLUSTER_PERSISTENT_STORAGE_GB,
  TYPICAL_STORAGE_REQUESTS_PER_HOUR,
  roleLayout,
} from '../../adapters/cloud/index.js';

const cores = (role: 'BI_SERVER' | 'QUERY_ENGINES' | 'DATA_PROCESS') => roleLayout(role).nodeCount * roleLayout(role).coresPerNode;

/** Disaster recovery keeps a copy of the persistent volumes in the backup region. */
export const BACKUP_STORAGE_GB = CLUSTER_PERSISTENT_STORAGE_GB;
/** Estimated replication to the backup region per hour the cluster exists (the simulated cloud moves no data). */
export const BACKUP_TRANSFER_GB_PER_HOUR = 1;

/** Storage API requests are priced per 1,000 (METERING_UNITS: thousand requests). */
export const REQUESTS_PER_UNIT = 1_000;

/**
 * Quantity one billable hour uses, in the unit of the dimension's rate (METERING_UNITS). Storage API requests are
 * charged as the cloud counts them; their figure here is a typical running hour's, for the preview and the forecast.
 */
export const HOURLY_QUANTITY: Record<MeteringDimension, number> = {
  BI_SERVER: cores('BI_SERVER'),
  QUERY_ENGINES: cores('QUERY_ENGINES'),
  DATA_PROCESS: cores('DATA_PROCESS'),
  PERIPHERAL_SERVICES: 1,
  LOCAL_STORAGE: CLUSTER_CACHE_STORAGE_GB / HOURS_PER_BILLING_MONTH,
  PERSISTENT_STORAGE: CLUSTER_PERSISTENT_STORAGE_GB / HOURS_PER_BILLING_MONTH,
  PERSISTENT_STORAGE_REQUESTS: TYPICAL_STORAGE_REQUESTS_PER_HOUR / REQUESTS_PER_UNIT,
  BACKUP_STORAGE: BACKUP_STORAGE_GB / HOURS_PER_BILLING_MONTH,
  BACKUP_DATA_TRANSFER: BACKUP_TRANSFER_GB_PER_HOUR,
};

/**
 * Free units are counted in the dimension's own unit except build: free build is in hours of the build
 * node, which is this many core-hours.
 */
export const FREE_UNIT_SIZE: Record<MeteringDimension, number> = {
  ...(Object.fromEntries(METERING_DIMENSIONS.map((d) => [d, 1])) as Record<MeteringDimension, number>),
  DATA_PROCESS: cores('DATA_PROCESS'),
};

/**
 * When a dimension is charged: compute while nodes run, storage while the cluster exists, DR only with a backup
 * region; requests for the hours the cloud counted any (a running cluster makes them).
 */
export const DIMENSION_KIND: Record<MeteringDimension, 'compute' | 'storage' | 'backup' | 'requests'> = {
  BI_SERVER: 'compute',
  QUERY_ENGINES: 'compute',
  DATA_PROCESS: 'compute',
  PERIPHERAL_SERVICES: 'compute',
  LOCAL_STORAGE: 'storage',
  PERSISTENT_STORAGE: 'storage',
  PERSISTENT_STORAGE_REQUESTS: 'requests',
  BACKUP_STORAGE: 'backup',
  BACKUP_DATA_TRANSFER: 'backup',
};

export interface Rate {
  dimension: MeteringDimension;
  /** US dollars per unit × 10,000. */
  rateE4: number;
  /** Free units a month (build hours, cache storage GB-month); 0 for the others. */
  freeUnits: number;
}

/** The default rate card for new customers; the reasons for each number are in decisions 0014 and 0028. */
export const DEFAULT_RATES: readonly Rate[] = [
  { dimension: 'BI_SERVER', rateE4: 600, freeUnits: 0 },
  { dimension: 'QUERY_ENGINES', rateE4: 600, freeUnits: 0 },
  { dimension: 'DATA_PROCESS', rateE4: 500, freeUnits: 50 },
  { dimension: 'PERIPHERAL_SERVICES', rateE4: 2500, freeUnits: 0 },
  { dimension: 'LOCAL_STORAGE', rateE4: 1000, freeUnits: 200 },
  { dimension: 'PERSISTENT_STORAGE', rateE4: 1200, freeUnits: 0 },
  { dimension: 'PERSISTENT_STORAGE_REQUESTS', rateE4: 50, freeUnits: 0 },
  { dimension: 'BACKUP_STORAGE', rateE4: 500, freeUnits: 0 },
  { dimension: 'BACKUP_DATA_TRANSFER', rateE4: 200, freeUnits: 0 },
];

/** The cents one billable hour costs at a rate, for the given chargeable quantity: rounded half up to the cent. */
export function hourCents(quantity: number, rateE4: number): number {
  // Same arithmetic as the SQL (numeric): quantity × rate / 100, rounded half away from zero.
  return Math.round((quantity * rateE4) / 100 + Number.EPSILON * 0);
}

/**
 * What a cluster in a state costs per billable hour at these rates (free units ignored: the cost preview's worst case),
 * its query engines running `queryEngineCores` (today's M × 5 when left out).
 */
export function clusterHourCents(
  rates: readonly Rate[],
  state: 'running' | 'stopped',
  hasBackup: boolean,
  queryEngineCores: number = HOURLY_QUANTITY.QUERY_ENGINES,
): number {
  return rates.reduce((sum, rate) => {
    const kind = DIMENSION_KIND[rate.dimension];
    const charged = kind === 'compute' || kind === 'requests' ? state === 'running' : kind === 'storage' ? true : hasBackup;
    const quantity = rate.dimension === 'QUERY_ENGINES' ? queryEngineCores : HOURLY_QUANTITY[rate.dimension];
    return charged ? sum + hourCents(round6(quantity), rate.rateE4) : sum;
  }, 0);
}

/** Quantities are stored with 6 decimals (numeric(18,6)); the code rounds the same way before pricing. */
export function round6(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
