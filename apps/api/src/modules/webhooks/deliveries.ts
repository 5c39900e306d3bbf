/**
 * Events out: an event is queued as one delivery per endpoint that asked for it, in the transaction of whatever
 * recorded it, and sent by the job queue. Each attempt is recorded; a failed one is tried again after a delay that
 * doubles each time, until a day after the event, then the delivery is given up.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { WEBHOOK_LIMITS, type WebhookEventBody } from '@kumo/contract';
import { HOUR, MINUTE, type Clock } from '../../clock.js';
import type { DbOrTx } from '../../db/client.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import type { WebhookEvent } from './event-sources.js';
import type { Sender } from './sender.js';
import type { Sealer } from '../../lib/crypto.js';
import { signatureHeader } from './signing.js';
import type { WebhookRow, WebhooksRepository } from './webhooks.repository.js';

export const WEBHOOK_JOBS = { deliver: 'webhooks.deliver', sweep: 'webhooks.sweep' } as const;

/** How long one attempt holds its delivery: longer than an attempt may last (the sender's time limit). */
export const CLAIM_MS = 2 * MINUTE;
/** Due deliveries the minute sweep sends at most. */
const SWEEP_BATCH = 50;

/** The delay before the attempt after the n-th failed one (n from 1): 30 s, 1 min, 2 min, … up to an hour. */
export function retryDelaySeconds(failedAttempts: number): number {
  const delay = WEBHOOK_LIMITS.firstRetryDelaySeconds * 2 ** (failedAttempts - 1);
  return Math.min(delay, WEBHOOK_LIMITS.maxRetryDelaySeconds);
}

export function createDeliveries(deps: {
  db: DbOrTx;
  repository: WebhooksRepository;
  jobs: JobQueue;
  sender: Sender;
  clock: Clock;
  /** Opens the endpoints' signing secrets. */
  sealer: Sealer;
  logger: FastifyBaseLogger;
}) {
  const { repository, jobs, sender, clock, logger } = deps;

  /** Asks a worker to send the delivery after `seconds`; if the queue is out of reach, the minute sweep sends it. */
  async function schedule(deliveryId: string, seconds?: number): Promise<void> {
    try {
      await jobs.send(WEBHOOK_JOBS.deliver, { deliveryId }, seconds ? { startAfterSeconds: seconds } : undefined);
    } catch (error) {
      logger.warn({ err: error, deliveryId }, 'could not queue the webhook delivery; the sweep will send it');
    }
  }

  /** Queues the event for the given endpoints in the caller's transaction; answers its id and the new delivery ids. */
  async function queueFor(
    endpoints: WebhookRow[],
    event: Omit<WebhookEvent, 'type'> & { type: WebhookEventBody['type'] },
    tx?: DbOrTx,
  ): Promise<{ eventId: string; deliveryIds: string[] }> {
    const now = clock.now();
    const body: WebhookEventBody = {
      id: randomUUID(),
      type: event.type,
      created_at: now.toISOString(),
      account_id: event.accountId,
      data: event.data,
    };
    const ids =
      endpoints.length === 0
        ? []
        : await repository.queue(
            endpoints.map((endpoint) => ({
              webhookId: endpoint.id,
              eventId: body.id,
              eventKey: `${event.type}:${event.key}`,
              type: event.type,
              body: JSON.stringify(body),
              createdAt: now,
              nextAttemptAt: now,
            })),
            tx,
          );
    // A second later: the job must not run before the transaction that queued the delivery commits.
    for (const id of ids) await schedule(id, 1);
    return { eventId: body.id, deliveryIds: ids };
  }

  /** One attempt at a delivery that is due; nothing when it is not (sent already, given up, or claimed elsewhere). */
  async function deliver(deliveryId: string): Promise<void> {
    const now = clock.now();
    const claimed = await repository.claim(deliveryId, now, new Date(now.getTime() + CLAIM_MS));
    if (!claimed) return;
    const endpoint = await repository.findById(claimed.webhookId);
    if (!endpoint) return;
    const signature = signatureHeader(deps.sealer.open(endpoint.sealedSecret), claimed.body, clock.now());
    const result = await sender({ url: endpoint.url, body: claimed.body, signature, eventId: claimed.eventId });
    const at = clock.now();
    const retryAt = new Date(at.getTime() + retryDelaySeconds(claimed.attemptCount + 1) * 1000);
    const givesUp = retryAt.getTime() > claimed.createdAt.getTime() + WEBHOOK_LIMITS.retryForHours * HOUR;
    const state = result.error === null ? 'DELIVERED' : givesUp ? 'FAILED' : 'PENDING';
    await repository.recordAttempt(
      claimed.id,
      { at, statusCode: result.statusCode, error: result.error, durationMs: result.durationMs },
      { state, nextAttemptAt: state === 'PENDING' ? retryAt : null },
    );
    if (state === 'PENDING') await schedule(claimed.id, Math.ceil((retryAt.getTime() - at.getTime()) / 1000));
  }

  return {
    queueFor,
    deliver,

    /** An event of the account, to every endpoint that asked for its type, in the transaction that recorded it. */
    async emit(event: WebhookEvent, tx?: DbOrTx): Promise<{ eventId: string; deliveryIds: string[] }> {
      return queueFor(await repository.subscribedTo(event.accountId, event.type, tx), event, tx);
    },

    /** The minute job: deliveries due whose job was lost or whose worker died mid-attempt. */
    async sweep(): Promise<void> {
      for (const id of await repository.dueIds(clock.now(), SWEEP_BATCH)) {
        try {
          await deliver(id);
        } catch (error) {
          logger.warn({ err: error, deliveryId: id }, 'webhook sweep failed for one delivery');
        }
      }
    },
  };
}
export type Deliveries = ReturnType<typeof createDeliveries>;
