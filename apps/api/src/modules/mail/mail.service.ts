import type { FastifyBaseLogger } from 'fastify';
import type { MailTransport } from '../../adapters/mail/mail-transport.js';
import type { Clock } from '../../clock.js';
import { MINUTE } from '../../clock.js';
import type { DbOrTx } from '../../db/client.js';
import type { JobDefinition, JobQueue } from '../../jobs/job-queue.js';
import type { MailRepository } from './mail.repository.js';

export const MAIL_DELIVER_QUEUE = 'mail-deliver';
export const MAIL_SWEEP_QUEUE = 'mail-sweep';
const LEASE_MS = 2 * MINUTE;
const SWEEP_BATCH = 100;

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * Mail leaves through an outbox: a row written in the caller's transaction, then a job that
 * delivers it with retries. A mail server that is down delays mail; it never loses it.
 */
export function createMailService(deps: {
  mailRepository: MailRepository;
  transport: MailTransport;
  jobs: JobQueue;
  clock: Clock;
  from: string;
  logger: FastifyBaseLogger;
}) {
  const { mailRepository, transport, jobs, clock, from, logger } = deps;

  async function dispatch(id: string): Promise<void> {
    try {
      await jobs.send(MAIL_DELIVER_QUEUE, { id });
    } catch (error) {
      // The sweep picks the mail up later; the caller's work has already committed.
      logger.warn({ err: error, mailId: id }, 'could not queue mail delivery; the sweep will retry');
    }
  }

  return {
    /** Stores a mail inside the caller's transaction; call dispatch(id) once it commits. */
    enqueue: (message: MailMessage, tx: DbOrTx) =>
      mailRepository.insert(
        { ...message, toAddress: message.to, textBody: message.text, htmlBody: message.html, createdAt: clock.now() },
        tx,
      ),

    dispatch,

    /** Sends one stored mail; throws on failure so the job is retried. */
    async deliver(id: string): Promise<'sent' | 'skipped'> {
      const now = clock.now();
      const mail = await mailRepository.claim(id, now, new Date(now.getTime() + LEASE_MS));
      if (!mail) return 'skipped';
      try {
        await transport.send({ from, to: mail.toAddress, subject: mail.subject, text: mail.textBody, html: mail.htmlBody });
      } catch (error) {
        await mailRepository.releaseAfterFailure(id, error instanceof Error ? error.message : String(error));
        throw error;
      }
      await mailRepository.markSent(id, clock.now());
      return 'sent';
    },

    /** Re-queues mail whose job was lost (a crash between commit and queueing) or ran out of retries. */
    async sweep(): Promise<number> {
      const now = clock.now();
      const ids = await mailRepository.listStalePending(new Date(now.getTime() - MINUTE), now, SWEEP_BATCH);
      for (const id of ids) await dispatch(id);
      return ids.length;
    },

    listRecent: (limit: number) => mailRepository.listRecent(limit),
  };
}
export type MailService = ReturnType<typeof createMailService>;

export function mailJobs(mail: MailService): JobDefinition[] {
  return [
    {
      queue: MAIL_DELIVER_QUEUE,
      retryLimit: 8,
      retryDelaySeconds: 5,
      handler: async (data) => {
        await mail.deliver(String(data.id));
      },
    },
    {
      queue: MAIL_SWEEP_QUEUE,
      retryLimit: 0,
      retryDelaySeconds: 60,
      schedule: '* * * * *',
      handler: async () => {
        await mail.sweep();
      },
    },
  ];
}
