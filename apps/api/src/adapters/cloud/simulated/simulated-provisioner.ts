/**
 * The simulated cloud: a CloudProvisioner that keeps its stacks in the portal's database and answers
 * describe() from the clock (see sim-timeline.ts). Requests are recorded durably the moment they
 * arrive, so the state survives restarts and tests move time with the injected clock. Kumo Manager
 * and the Web Portal of each simulated cluster are small pages the portal serves (sim-pages.routes.ts).
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Clock } from '../../../clock.js';
import type { Database } from '../../../db/client.js';
import { simCloudStacks } from './sim-cloud.schema.js';
import {
  CloudRequestError,
  type ClusterDescription,
  type CloudProvisioner,
  type CreateClusterInput,
  type QueryEngineShape,
  type TimeWindow,
} from '../cloud-provisioner.js';
import { describeSimStack, type SimStackRecord } from './sim-timeline.js';
import { simStorageRequests } from './sim-storage-requests.js';
import type { ClusterSqlPort } from '../sql-port.js';
import { createSimSql } from './sim-sql.js';
import { hashSqlPassword } from './sim-sql-credentials.js';
import { createSimSqlEngines, type SimSqlEngines } from './sim-sql-engine.js';

export interface SimulatedCloudOptions {
  db: Database;
  clock: Clock;
  /** How much faster than real time the simulated cloud runs (SIM_TIME_SCALE, default 60). */
  timeScale: number;
  /** Cluster names matching this fail their stack creation (SIM_FAIL_PATTERN). */
  failPattern?: RegExp;
  /** Where the portal serves the simulated Kumo Manager and Web Portal pages. */
  publicUrl: string;
  /** Where each cluster's query engine keeps its database file (under DATA_DIR). */
  dataDir: string;
  /** How long a query may run before it is cancelled (tests shorten it). */
  sqlTimeoutMs?: number;
}

export const SIM_PAGES_PREFIX = '/sim/kumo';

export function simulatedPageUrls(publicUrl: string, stackName: string) {
  const base = `${publicUrl}${SIM_PAGES_PREFIX}/${encodeURIComponent(stackName)}`;
  return { manager: `${base}/manager/`, portal: `${base}/portal/`, sql: `${base}/sql` };
}

export interface SimulatedProvisioner extends CloudProvisioner {
  readonly kind: 'simulated';
  readonly sql: ClusterSqlPort;
  /** The clusters' query engines (closed when the portal shuts down). */
  readonly engines: SimSqlEngines;
  storageRequests(stackName: string, windows: readonly TimeWindow[]): Promise<number[]>;
  /** The stack's settings and description, for the simulated pages; undefined when unknown. */
  stackInfo(
    stackName: string,
  ): Promise<{ clusterName: string; settings: Record<string, unknown>; description: ClusterDescription } | undefined>;
}

export function createSimulatedProvisioner(options: SimulatedCloudOptions): SimulatedProvisioner {
  const { db, clock, timeScale } = options;
  const engines = createSimSqlEngines({ dataDir: options.dataDir, timeoutMs: options.sqlTimeoutMs });

  async function find(stackName: string) {
    const [row] = await db.select().from(simCloudStacks).where(eq(simCloudStacks.stackName, stackName)).limit(1);
    return row;
  }

  function record(row: typeof simCloudStacks.$inferSelect): SimStackRecord {
    return {
      stackName: row.stackName,
      deploymentId: row.deploymentId,
      fails: row.fails,
      createdAt: row.createdAt,
      powerAction: (row.powerAction as SimStackRecord['powerAction']) ?? null,
      powerActionAt: row.powerActionAt,
      deleteRequestedAt: row.deleteRequestedAt,
      engines: { instanceType: row.engineType, count: row.engineCount },
      resizeFrom: row.resizeFromType && row.resizeFromCount ? { instanceType: row.resizeFromType, count: row.resizeFromCount } : null,
      resizedAt: row.resizedAt,
    };
  }

  async function describe(stackName: string): Promise<ClusterDescription> {
    const row = await find(stackName);
    return describeSimStack(row && record(row), clock.now(), timeScale, simulatedPageUrls(options.publicUrl, stackName));
  }

  async function requireStack(stackName: string) {
    const row = await find(stackName);
    if (!row) throw new CloudRequestError(`Stack ${stackName} does not exist`, false);
    return row;
  }

  return {
    kind: 'simulated',
    engines,
    sql: createSimSql({ db, engines, describe, endpointFor: (stackName) => simulatedPageUrls(options.publicUrl, stackName).sql }),

    async createCluster(input: CreateClusterInput) {
      // The password reaches the cloud and is kept only as the SQL endpoint's slow hash.
      if (!input.password) throw new CloudRequestError('The AdminPassword parameter must not be empty', false);
      const existing = await find(input.stackName);
      // A retried request (the job ran twice) gets the same stack back, as CloudFormation's ClientRequestToken does.
      if (existing) return { stackId: existing.stackId };
      const stackId = `arn:aws:cloudformation:${input.settings.region}:000000000000:stack/${input.stackName}/${randomUUID()}`;
      await db
        .insert(simCloudStacks)
        .values({
          stackName: input.stackName,
          stackId,
          deploymentId: input.deploymentId,
          clusterName: input.settings.clusterName,
          settings: { ...input.settings },
          fails: options.failPattern ? options.failPattern.test(input.settings.clusterName) : false,
          createdAt: clock.now(),
          sqlPasswordHash: await hashSqlPassword(input.password),
          sqlPortalHash: input.portalSqlCredential ? await hashSqlPassword(input.portalSqlCredential) : null,
          ...(input.settings.queryEngines
            ? { engineType: input.settings.queryEngines.instanceType, engineCount: input.settings.queryEngines.count }
            : {}),
        })
        .onConflictDoNothing();
      return { stackId: (await requireStack(input.stackName)).stackId };
    },

    describe,

    async stopCluster(stackName: string) {
      await requireStack(stackName);
      // A stopped cluster's engine holds no handle; its file stays for the next start.
      await engines.close(stackName);
      await db
        .update(simCloudStacks)
        .set({ powerAction: 'STOP', powerActionAt: clock.now() })
        .where(eq(simCloudStacks.stackName, stackName));
    },

    async startCluster(stackName: string) {
      await requireStack(stackName);
      await db
        .update(simCloudStacks)
        .set({ powerAction: 'START', powerActionAt: clock.now() })
        .where(eq(simCloudStacks.stackName, stackName));
    },

    async resizeCluster(stackName: string, shape: QueryEngineShape) {
      const row = await requireStack(stackName);
      const from = { instanceType: row.engineType, count: row.engineCount };
      const description = await describe(stackName);
      // A running cluster moves engine by engine from the shape it has now; a stopped one starts with the new shape.
      const running = description.powerState === 'RUNNING' && !description.resizing;
      // The engine reopens with the threads of its new cores at the next query.
      await engines.close(stackName);
      await db
        .update(simCloudStacks)
        .set({
          engineType: shape.instanceType,
          engineCount: shape.count,
          resizeFromType: running ? from.instanceType : null,
          resizeFromCount: running ? from.count : null,
          resizedAt: running ? clock.now() : null,
        })
        .where(eq(simCloudStacks.stackName, stackName));
    },

    async deleteCluster(stackName: string) {
      const row = await find(stackName);
      // Deleting a stack that is gone is not an error in CloudFormation either.
      if (!row || row.deleteRequestedAt) return;
      await engines.remove(stackName);
      await db.update(simCloudStacks).set({ deleteRequestedAt: clock.now() }).where(eq(simCloudStacks.stackName, stackName));
    },

    async storageRequests(stackName: string, windows: readonly TimeWindow[]) {
      const row = await find(stackName);
      return windows.map((window) => (row ? simStorageRequests(record(row), window, timeScale) : 0));
    },

    async stackInfo(stackName: string) {
      const row = await find(stackName);
      if (!row) return undefined;
      return { clusterName: row.clusterName, settings: row.settings, description: await describe(stackName) };
    },
  };
}
