/**
 * The account's webhook endpoints: saved by owners and admins signed in as people (a token never does it), listed
 * without their secrets but with their last deliveries, deleted, and sent a test event on demand.
 */
import { randomUUID } from 'node:crypto';
import { WEBHOOK_LIMITS, WEBHOOK_MESSAGES, WEBHOOK_TEST_EVENT, type CreateWebhookValues, type WebhookEventType } from '@kumo/contract';
import type { Clock } from '../../clock.js';
import { badRequest, businessRule, notFound } from '../../errors.js';
import type { AccountCaller } from '../../http/caller.js';
import type { Deliveries } from './deliveries.js';
import { destinationProblem } from './destination.js';
import type { Sealer } from '../../lib/crypto.js';
import { generateWebhookSecret } from './signing.js';
import type { AttemptRow, DeliveryRow, WebhookRow, WebhooksRepository } from './webhooks.repository.js';

export interface WebhookValue {
  id: string;
  url: string;
  events: WebhookEventType[];
  createdAt: Date;
  deliveries: (DeliveryRow & { attempts: AttemptRow[] })[];
}

export function createWebhooksService(deps: {
  repository: WebhooksRepository;
  deliveries: Deliveries;
  clock: Clock;
  /** Seals the endpoints' signing secrets. */
  sealer: Sealer;
  allowPrivate: boolean;
}) {
  const { repository, deliveries, clock } = deps;
  const missing = () => notFound('NOT_FOUND', WEBHOOK_MESSAGES.notFound);

  async function requireEndpoint(caller: AccountCaller, id: string): Promise<WebhookRow> {
    const endpoint = await repository.findOf(caller.accountId, id);
    if (!endpoint) throw missing();
    return endpoint;
  }

  return {
    /** A new endpoint of the session's account; its signing secret is in this answer only. */
    async create(caller: AccountCaller, request: CreateWebhookValues): Promise<{ id: string; secret: string }> {
      const problem = await destinationProblem(request.url, deps.allowPrivate);
      if (problem) throw badRequest('VALIDATION_FAILED', problem, { url: problem });
      const secret = generateWebhookSecret();
      const row = await repository.insertBelow(WEBHOOK_LIMITS.maxPerAccount, {
        accountId: caller.accountId,
        url: request.url,
        events: request.events,
        sealedSecret: deps.sealer.seal(secret),
        createdByUserId: caller.userId,
        createdAt: clock.now(),
      });
      if (!row) throw businessRule('VALIDATION_FAILED', WEBHOOK_MESSAGES.tooMany);
      return { id: row.id, secret };
    },

    /** The account's endpoints, each with its newest deliveries and their newest attempts. */
    async list(caller: AccountCaller): Promise<WebhookValue[]> {
      const endpoints = await repository.listOf(caller.accountId);
      const latest = await repository.latestDeliveries(
        endpoints.map((endpoint) => endpoint.id),
        WEBHOOK_LIMITS.listedDeliveries,
      );
      const attempts = await repository.attemptsOf(latest.map((delivery) => delivery.id));
      return endpoints.map((endpoint) => ({
        id: endpoint.id,
        url: endpoint.url,
        events: endpoint.events as WebhookEventType[],
        createdAt: endpoint.createdAt,
        deliveries: latest
          .filter((delivery) => delivery.webhookId === endpoint.id)
          .map((delivery) => ({
            ...delivery,
            attempts: attempts.filter((attempt) => attempt.deliveryId === delivery.id).slice(0, WEBHOOK_LIMITS.listedAttempts),
          })),
      }));
    },

    async remove(caller: AccountCaller, id: string): Promise<void> {
      if (!(await repository.delete(caller.accountId, id))) throw missing();
    },

    /** Sends the endpoint a `webhook.test` event, signed and retried like any other; answers its event id. */
    async test(caller: AccountCaller, id: string): Promise<string> {
      const endpoint = await requireEndpoint(caller, id);
      const problem = await destinationProblem(endpoint.url, deps.allowPrivate);
      if (problem) throw badRequest('VALIDATION_FAILED', problem, { url: problem });
      const queued = await deliveries.queueFor([endpoint], {
        accountId: caller.accountId,
        type: WEBHOOK_TEST_EVENT,
        key: randomUUID(),
        data: { webhook_id: endpoint.id, message: 'A test event from Kumo Cloud.' },
      });
      return queued.eventId;
    },
  };
}
export type WebhooksService = ReturnType<typeof createWebhooksService>;
