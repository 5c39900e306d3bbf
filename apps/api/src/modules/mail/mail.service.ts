import type { FastifyBaseLogger } from 'fastify';
import type { MailTransport } from '../../adapters/mail/index.js';
import type { Clock } from '../../clock.js';
import { DAY, MINUTE } from '../../clock.js';
import type { DbOrTx } from '../../db/client.js';
import type { JobDefinition, JobQueue } from '../../jobs/job-queue.js';
import { MESSAGES } from '@kumo/contract';
import { tooManyRequests } from '../../errors.js';
import type { Sealer } from '../../lib/crypto.js';
import type { MailRepository, OutboxRow } from './mail.repository.js';

export const MAIL_DELIVER_QUEUE = 'mail-deliver';
export const MAIL_SWEEP_QUEUE = 'mail-sweep';
export const MAIL_PURGE_QUEUE = 'mail-purge';
/** Sent mail is kept this long (what was mailed, to whom, when), then deleted. */
export const SENT_MAIL_RETENTION_MS = 7 * DAY;
const LEASE_MS = 2 * MINUTE;
const SWEEP_BATCH = 100;

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * What a mail is for. OTP mail goes before every other kind (a customer is waiting at the sign-in screen,
 * and the code lives 10 minutes); OTP and invitation mail, which anyone can cause, are capped.
 */
export type MailKind = 'otp' | 'invitation' | 'notification';
export const MAIL_PRIORITY: Record<MailKind, number> = { otp: 10, invitation: 5, notification: 0 };
/** The kinds whose body holds a secret (an OTP, an approval OTP, an invitation link): sealed at rest, blanked once sent. */
const SECRET_KINDS: ReadonlySet<string> = new Set<MailKind>(['otp', 'invitation']);

export interface MailLimits {
  /** OTP and invitation mails per minute across the portal. */
  perMinute: number;
  /** OTP and invitation mails per minute to one recipient domain. */
  perDomainPerMinute: number;
  /** Mails the worker delivers at the same time. */
  concurrency: number;
}
export const DEFAULT_MAIL_LIMITS: MailLimits = { perMinute: 120, perDomainPerMinute: 30, concurrency: 8 };

/**
 * Mail leaves through an outbox: a row written in the caller's transaction, then a job that
 * delivers it with retries. A mail server that is down delays mail; it never loses it.
 */
export function createMailService(deps: {
  repository: MailRepository;
  transport: MailTransport;
  jobs: JobQueue;
  clock: Clock;
  from: string;
  logger: FastifyBaseLogger;
  limits?: Partial<MailLimits>;
  /** Seals the body of mail that holds a secret, under a key derived for mail alone. */
  sealer: Sealer;
}) {
  const { repository, transport, jobs, clock, from, logger, sealer } = deps;
  // A body written before bodies were sealed is read as it is.
  const openBody = (body: string) => (sealer.isSealed(body) ? sealer.open(body) : body);
  const opened = (row: OutboxRow): OutboxRow => ({ ...row, textBody: openBody(row.textBody), htmlBody: openBody(row.htmlBody) });
  const limits: MailLimits = { ...DEFAULT_MAIL_LIMITS, ...deps.limits };

  async function dispatch(id: string, kind: MailKind = 'notification'): Promise<void> {
    try {
      await jobs.send(MAIL_DELIVER_QUEUE, { id }, { priority: MAIL_PRIORITY[kind] });
    } catch (error) {
      // The sweep picks the mail up later; the caller's work has already committed.
      logger.warn({ err: error, mailId: id }, 'could not queue mail delivery; the sweep will retry');
    }
  }

  async function send(mail: OutboxRow | undefined): Promise<'sent' | 'skipped'> {
    if (!mail) return 'skipped';
    try {
      const { textBody, htmlBody } = opened(mail);
      await transport.send({ from, to: mail.toAddress, subject: mail.subject, text: textBody, html: htmlBody });
    } catch (error) {
      await repository.releaseAfterFailure(mail.id, error instanceof Error ? error.message : String(error));
      throw error;
    }
    // The dev mailbox is where development reads its mail, so it keeps the sealed body; SMTP has it now.
    await repository.markSent(mail.id, clock.now(), SECRET_KINDS.has(mail.kind) && transport.kind === 'smtp');
    return 'sent';
  }

  return {
    /**
     * Stores a mail inside the caller's transaction; call dispatch(id) once it commits. OTP and invitation
     * mail over the per-minute caps (in all, or to the recipient's domain) is refused with 429: one client
     * cannot flood the mail server, nor bury other customers' sign-in codes behind its own.
     */
    async enqueue(message: MailMessage, tx: DbOrTx, kind: MailKind = 'notification'): Promise<string> {
      const now = clock.now();
      if (kind !== 'notification') {
        const domain = (message.to.split('@')[1] ?? '').toLowerCase();
        const sent = await repository.countCappedSince(new Date(now.getTime() - MINUTE), domain, tx);
        if (sent.total >= limits.perMinute || sent.domain >= limits.perDomainPerMinute) {
          logger.warn({ kind, recipientDomain: domain, sentLastMinute: sent }, 'mail cap reached; refusing an OTP or invitation mail');
          throw tooManyRequests('MAIL_RATE_LIMITED', MESSAGES.mailRateLimited);
        }
      }
      const seal = (body: string) => (SECRET_KINDS.has(kind) ? sealer.seal(body) : body);
      return repository.insert(
        {
          subject: message.subject,
          toAddress: message.to,
          textBody: seal(message.text),
          htmlBody: seal(message.html),
          createdAt: now,
          kind,
          priority: MAIL_PRIORITY[kind],
        },
        tx,
      );
    },

    dispatch,

    /** Sends one stored mail; throws on failure so the job is retried. */
    async deliver(id: string): Promise<'sent' | 'skipped'> {
      const now = clock.now();
      return send(await repository.claim(id, now, new Date(now.getTime() + LEASE_MS)));
    },

    /**
     * Sends the most urgent waiting mail, whichever job woke the worker: an OTP queued behind a burst of
     * invitations goes out next. Several workers run this at once, each taking a different mail.
     */
    async deliverNext(): Promise<'sent' | 'idle'> {
      const now = clock.now();
      const mail = await repository.claimNext(now, new Date(now.getTime() + LEASE_MS));
      return (await send(mail)) === 'sent' ? 'sent' : 'idle';
    },

    /** Mails the worker delivers at the same time. */
    concurrency: limits.concurrency,

    /** Re-queues mail whose job was lost (a crash between commit and queueing) or ran out of retries. */
    async sweep(): Promise<number> {
      const now = clock.now();
      const ids = await repository.listStalePending(new Date(now.getTime() - MINUTE), now, SWEEP_BATCH);
      for (const id of ids) await dispatch(id);
      return ids.length;
    },

    /** Deletes mail sent longer ago than the retention; answers how many. */
    purge: () => repository.purgeSent(new Date(clock.now().getTime() - SENT_MAIL_RETENTION_MS)),
    /** The latest mails with their bodies opened: for the dev mailbox. */
    listRecent: async (limit: number) => (await repository.listRecent(limit)).map(opened),
  };
}
export type MailService = ReturnType<typeof createMailService>;

export function mailJobs(mail: MailService): JobDefinition[] {
  return [
    {
      queue: MAIL_DELIVER_QUEUE,
      retryLimit: 8,
      retryDelaySeconds: 5,
      concurrency: mail.concurrency,
      // The most urgent mail waiting goes first (an OTP queued behind a burst of invitations), then this
      // job's own mail unless that was it or another worker has it: no mail waits for the sweep.
      handler: async (data) => {
        await mail.deliverNext();
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
    {
      queue: MAIL_PURGE_QUEUE,
      retryLimit: 0,
      retryDelaySeconds: 60,
      schedule: '17 * * * *',
      handler: async () => {
        await mail.purge();
      },
    },
  ];
}
