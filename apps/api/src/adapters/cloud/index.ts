/** Chooses the cloud driver (CLOUD_DRIVER): the simulated cloud by default, AWS CloudFormation when asked for. */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/client.js';
import type { CloudProvisioner } from './cloud-provisioner.js';
import { createAwsProvisioner, type AwsProvisionerOptions } from './aws/aws-provisioner.js';
import { createSimulatedProvisioner, type SimulatedProvisioner } from './simulated/simulated-provisioner.js';

export type {
  CloudProvisioner,
  ClusterDescription,
  ClusterSettings,
  CloudNode,
  QueryEngineShape,
  TimeWindow,
} from './cloud-provisioner.js';
export { CloudRequestError, stackNameFor, TYPICAL_STORAGE_REQUESTS_PER_HOUR } from './cloud-provisioner.js';
export type { SimulatedProvisioner } from './simulated/simulated-provisioner.js';
export { simPagesRoutes } from './simulated/sim-pages.routes.js';
export { createSimTickets } from './simulated/sim-tickets.js';
export { simSqlRoutes } from './simulated/sim-sql.routes.js';
/** The AWS engines' SQL endpoints over the network, for a driver whose clusters serve the contract themselves. */
export { createAwsSqlClient } from './aws/aws-sql-client.js';
export { RESIZE_STEP_MINUTES } from './simulated/sim-resize.js';
export * from './sql-port.js';
export * from './manager-ticket.js';
/** The deployment template (staff download it; the AWS driver deploys it) and the fixed node layout. */
export * from './template/index.js';

export interface CloudConfig {
  driver?: 'simulated' | 'aws';
  /** SIM_TIME_SCALE: how many times faster than real time the simulated cloud runs. */
  simTimeScale?: number;
  /** SIM_FAIL_PATTERN: clusters whose name matches fail their stack creation. */
  simFailPattern?: string;
  /** Settings of the AWS driver (AWS_BACKUP_BUCKET_ARN_PATTERN, AWS_KEY_NAME, AWS_INGRESS_CIDR, AWS_PORTAL_CIDR). */
  aws?: AwsProvisionerOptions;
  /** Where the simulated clusters' query engines keep their files (DATA_DIR/sim-clusters). */
  simDataDir?: string;
  /** How long a simulated cluster's query may run (tests shorten it). */
  simSqlTimeoutMs?: number;
  /** A ready driver (tests hand in a recording one). */
  provisioner?: CloudProvisioner;
}

export interface Cloud {
  provisioner: CloudProvisioner;
  /** Set when the simulated cloud is in use: the portal serves its Manager and Web Portal pages. */
  simulated?: SimulatedProvisioner;
}

export const DEFAULT_SIM_TIME_SCALE = 60;

export function createCloud(config: CloudConfig, deps: { db: Database; clock: Clock; publicUrl: string }): Cloud {
  if (config.provisioner) return { provisioner: config.provisioner };
  // Credentials and region come from the AWS SDK's standard chain (AWS_REGION, AWS_ENDPOINT_URL, profiles, roles).
  if (config.driver === 'aws') return { provisioner: createAwsProvisioner(config.aws) };
  const simulated = createSimulatedProvisioner({
    db: deps.db,
    clock: deps.clock,
    timeScale: config.simTimeScale ?? DEFAULT_SIM_TIME_SCALE,
    failPattern: config.simFailPattern ? new RegExp(config.simFailPattern) : undefined,
    publicUrl: deps.publicUrl,
    dataDir: config.simDataDir ?? join(tmpdir(), 'kumo-sim-clusters'),
    sqlTimeoutMs: config.simSqlTimeoutMs,
  });
  return { provisioner: simulated, simulated };
}
