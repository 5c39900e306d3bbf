/**
 * The webhooks module's public face: the service (endpoints, their deliveries, the events other modules' records
 * become), its routes and jobs. No module imports it: services.ts hands it the notices written and the clusters'
 * audit entries.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.js';
import type { Database, DbOrTx } from '../../db/client.js';
import type { JobDefinition, JobQueue } from '../../jobs/job-queue.js';
import type { Sealer } from '../../lib/crypto.js';
import { WEBHOOK_JOBS, createDeliveries } from './deliveries.js';
import { eventOfNotice, eventsOfClusterAudit, type ClusterAuditFacts, type NoticeFacts } from './event-sources.js';
import { createSender, type Sender } from './sender.js';
import { createWebhooksRepository } from './webhooks.repository.js';
import { createWebhooksService as createService } from './webhooks.service.js';

export type { WebhooksService } from './webhooks.service.js';
export { webhooksRoutes } from './webhooks.routes.js';
export { WEBHOOK_JOBS } from './deliveries.js';

export function createWebhooksService(deps: {
  db: Database;
  jobs: JobQueue;
  clock: Clock;
  /** Seals the endpoints' signing secrets under their own key. */
  sealer: Sealer;
  logger: FastifyBaseLogger;
  /** WEBHOOK_ALLOW_PRIVATE: endpoints may be http:// and resolve to loopback, private or link-local addresses. */
  allowPrivate: boolean;
  sender?: Sender;
}) {
  const repository = createWebhooksRepository(deps.db);
  const sender = deps.sender ?? createSender({ allowPrivate: deps.allowPrivate });
  const deliveries = createDeliveries({ ...deps, repository, sender });
  const service = createService({ repository, deliveries, clock: deps.clock, sealer: deps.sealer, allowPrivate: deps.allowPrivate });
  return {
    ...service,
    deliver: deliveries.deliver,
    sweep: deliveries.sweep,
    /** A notice was written: the events it means go out to the endpoints that asked for them, in its transaction. */
    async noticeWritten(notice: NoticeFacts, tx?: DbOrTx): Promise<void> {
      const event = eventOfNotice(notice);
      if (event) await deliveries.emit(event, tx);
    },
    /** A cluster's audit entry was written: a status change (and a deployment's end) goes out, in its transaction. */
    async clusterAudited(entry: ClusterAuditFacts, tx?: DbOrTx): Promise<void> {
      for (const event of eventsOfClusterAudit(entry)) await deliveries.emit(event, tx);
    },
  };
}
export type Webhooks = ReturnType<typeof createWebhooksService>;

export function webhookJobs(webhooks: Pick<Webhooks, 'deliver' | 'sweep'>): JobDefinition[] {
  return [
    {
      queue: WEBHOOK_JOBS.deliver,
      // The retries and their backoff are the delivery's own (recorded per attempt); this covers a worker that failed.
      retryLimit: 3,
      retryDelaySeconds: 30,
      handler: async (data) => {
        await webhooks.deliver(String(data.deliveryId));
      },
    },
    {
      queue: WEBHOOK_JOBS.sweep,
      retryLimit: 0,
      retryDelaySeconds: 60,
      schedule: '* * * * *',
      handler: async () => {
        await webhooks.sweep();
      },
    },
  ];
}
