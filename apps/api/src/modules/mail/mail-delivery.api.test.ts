import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { sql } from 'drizzle-orm';
import { createSmtpTransport } from '../../adapters/mail/index.js';
import { startJobQueue } from '../../jobs/boss.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import { lateBoundQueue } from '../../jobs/late-bound-queue.js';
import { MINUTE } from '../../clock.js';
import type { DatabaseHandle } from '../../db/client.js';
import { createMailRepository } from './mail.repository.js';
import { MAIL_PURGE_QUEUE, SENT_MAIL_RETENTION_MS, createMailService, mailJobs, type MailService } from './mail.service.js';
import { databaseKinds, openTestDatabase } from '../../../test/support/databases.js';
import { ManualClock } from '../../../test/support/manual-clock.js';
import { otpIn } from '../../../test/support/mail-parser.js';
import { RecordingQueue, TEST_KEYS } from '../../../test/support/harness.js';
import { startSmtpSink } from '../../../test/support/smtp-sink.js';

const kinds = await databaseKinds();
const logger = pino({ level: 'silent' });
const message = (to: string) => ({ to, subject: 'Your Kumo Cloud one-time password', text: 'Your code: 424242', html: '<p>424242</p>' });

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.each(kinds)('mail outbox on %s', (kind) => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(() => database.close());

  function mailService(smtpUrl: string, clock = new ManualClock(), jobs: JobQueue = new RecordingQueue()): MailService {
    return createMailService({
      repository: createMailRepository(database.db),
      transport: createSmtpTransport(smtpUrl),
      jobs,
      clock,
      from: 'Kumo Cloud <no-reply@kumo.test>',
      logger,
      sealer: TEST_KEYS.mail,
    });
  }

  it('keeps a mail while the SMTP server is down and delivers it once it is back, exactly once', async () => {
    const sink = await startSmtpSink();
    const port = sink.port;
    await sink.close();
    const mail = mailService(`smtp://127.0.0.1:${port}`);
    const id = await database.db.transaction((tx) => mail.enqueue(message('down@example.com'), tx));

    await expect(mail.deliver(id)).rejects.toThrow();
    const [pending] = (await mail.listRecent(10)).filter((row) => row.id === id);
    expect(pending).toMatchObject({ status: 'PENDING', attempts: 1 });
    expect(pending?.lastError).toBeTruthy();

    const revived = await startSmtpSink(port);
    try {
      expect(await mail.deliver(id)).toBe('sent');
      expect(await mail.deliver(id)).toBe('skipped');
      expect(revived.received).toHaveLength(1);
      expect(revived.received[0]?.to).toBe('down@example.com');
      const [sent] = (await mail.listRecent(10)).filter((row) => row.id === id);
      expect(sent?.status).toBe('SENT');
    } finally {
      await revived.close();
    }
  });

  it('keeps an OTP mail sealed until SMTP has it, then no body at all; sent mail is purged after 7 days', async () => {
    const sink = await startSmtpSink();
    const clock = new ManualClock();
    try {
      const mail = mailService(sink.url, clock);
      const id = await database.db.transaction((tx) => mail.enqueue(message('sealed@example.com'), tx, 'otp'));
      const notice = await database.db.transaction((tx) => mail.enqueue(message('notice@example.com'), tx));
      const stored = async (mailId: string) =>
        (
          await database.db.execute<{ text_body: string; html_body: string }>(
            sql`select text_body, html_body from mail_outbox where id = ${mailId}`,
          )
        ).rows[0];
      const pending = await stored(id);
      expect(pending?.text_body).toMatch(/^k1\./);
      expect(`${pending?.text_body}${pending?.html_body}`).not.toContain('424242');
      // The dev mailbox, which reads through the service, still shows the code.
      expect((await mail.listRecent(10)).find((row) => row.id === id)?.textBody).toBe('Your code: 424242');

      expect(await mail.deliver(id)).toBe('sent');
      expect(otpIn(sink.received.find((received) => received.raw.includes('sealed@example.com'))!.raw)).toBe('424242');
      expect(await stored(id)).toEqual({ text_body: '', html_body: '' });
      expect(await mail.deliver(notice)).toBe('sent');

      clock.advance(SENT_MAIL_RETENTION_MS - MINUTE);
      await mail.purge();
      expect((await mail.listRecent(50)).map((row) => row.id)).toEqual(expect.arrayContaining([id, notice]));
      clock.advance(2 * MINUTE);
      expect(await mail.purge()).toBeGreaterThanOrEqual(2);
      expect((await mail.listRecent(50)).map((row) => row.id)).not.toEqual(expect.arrayContaining([id]));
      expect((await mail.listRecent(50)).map((row) => row.id)).not.toEqual(expect.arrayContaining([notice]));
      expect(mailJobs(mail).find((job) => job.queue === MAIL_PURGE_QUEUE)?.schedule).toBeTruthy();
    } finally {
      await sink.close();
    }
  });

  it('the sweep re-queues mail left pending for over a minute', async () => {
    const clock = new ManualClock();
    const jobs = new RecordingQueue();
    const mail = mailService('smtp://127.0.0.1:1', clock, jobs);
    const id = await database.db.transaction((tx) => mail.enqueue(message('late@example.com'), tx));
    expect(await mail.sweep()).toBe(0);
    clock.advance(2 * MINUTE);
    expect(await mail.sweep()).toBeGreaterThanOrEqual(1);
    expect(jobs.sent).toContainEqual({ queue: 'mail-deliver', data: { id } });
  });

  it('a mail enqueued in a transaction that rolls back is never sent', async () => {
    const mail = mailService('smtp://127.0.0.1:1');
    let id = '';
    await expect(
      database.db.transaction(async (tx) => {
        id = await mail.enqueue(message('rolled-back@example.com'), tx);
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect((await mail.listRecent(50)).some((row) => row.id === id)).toBe(false);
  });

  it('pg-boss workers deliver queued mail to a real SMTP server', async () => {
    const sink = await startSmtpSink();
    const jobs = lateBoundQueue();
    const mail = mailService(sink.url, new ManualClock(), jobs);
    const workers = await startJobQueue(database.jobsSql, mailJobs(mail), logger);
    jobs.bind(workers.queue);
    workers.startWorkers();
    try {
      const id = await database.db.transaction((tx) => mail.enqueue(message('worker@example.com'), tx));
      await mail.dispatch(id);
      // The worker sends the most urgent waiting mail first: mail left pending by earlier tests may go out too.
      await waitFor(() => sink.received.some((received) => received.raw.includes('worker@example.com')));
      expect(otpIn(sink.received.find((received) => received.raw.includes('worker@example.com'))!.raw)).toBe('424242');
      await waitFor(async () => (await mail.listRecent(50)).find((row) => row.id === id)?.status === 'SENT');
    } finally {
      await workers.stop();
      await sink.close();
    }
  });
});
