import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { MESSAGES } from '@kumo/contract';
import type { MailTransport, OutgoingMail } from '../../adapters/mail/index.js';
import { MINUTE } from '../../clock.js';
import type { DatabaseHandle } from '../../db/client.js';
import { AppError } from '../../errors.js';
import { createMailRepository } from './mail.repository.js';
import { MAIL_DELIVER_QUEUE, createMailService, mailJobs, type MailKind, type MailLimits } from './mail.service.js';
import { databaseKinds, openTestDatabase } from '../../../test/support/databases.js';
import { ManualClock } from '../../../test/support/manual-clock.js';
import { RecordingQueue, TEST_KEYS, errorCode, errorMessage, post, startTestApp } from '../../../test/support/harness.js';

const kinds = await databaseKinds();
const logger = pino({ level: 'silent' });
const mailTo = (to: string) => ({ to, subject: 'Subject', text: 'Body', html: '<p>Body</p>' });

/** Records deliveries; while held, each send waits, so a test can see how many are in flight at once. */
class SlowTransport implements MailTransport {
  readonly kind = 'smtp' as const;
  readonly delivered: OutgoingMail[] = [];
  inFlight = 0;
  maxInFlight = 0;
  #release: (() => void)[] = [];
  held = false;
  async send(mail: OutgoingMail): Promise<void> {
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    if (this.held) await new Promise<void>((resolve) => this.#release.push(resolve));
    this.inFlight--;
    this.delivered.push(mail);
  }
  releaseAll(): void {
    this.held = false;
    for (const release of this.#release.splice(0)) release();
  }
  close(): void {}
}

describe.each(kinds)('mail that cannot flood or starve sign-in, on %s', (kind) => {
  // A database per test: the outbox delivers whatever is most urgent, so mail left by another test would interfere.
  let database: DatabaseHandle;
  beforeEach(async () => {
    database = await openTestDatabase(kind);
  });
  afterEach(() => database.close());

  function service(limits: Partial<MailLimits>, clock = new ManualClock(), transport = new SlowTransport(), jobs = new RecordingQueue()) {
    const mail = createMailService({
      repository: createMailRepository(database.db),
      transport,
      jobs,
      clock,
      from: 'Kumo Cloud <no-reply@kumo.test>',
      logger,
      sealer: TEST_KEYS.mail,
      limits,
    });
    const enqueue = (to: string, kind: MailKind) => database.db.transaction((tx) => mail.enqueue(mailTo(to), tx, kind));
    return { mail, transport, clock, jobs, enqueue };
  }

  it('caps OTP and invitation mail per minute in all and per recipient domain, and lets other mail through', async () => {
    const clock = new ManualClock('2026-05-01T10:00:00Z');
    const { enqueue } = service({ perMinute: 5, perDomainPerMinute: 3 }, clock);
    for (let i = 0; i < 3; i++) await enqueue(`user${i}@flood.example`, i % 2 ? 'invitation' : 'otp');
    const refused = await enqueue('user9@FLOOD.example', 'otp').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ statusCode: 429, code: 'MAIL_RATE_LIMITED', message: MESSAGES.mailRateLimited });
    // Other domains still get theirs, up to the global cap.
    await enqueue('a@other.example', 'otp');
    await enqueue('b@third.example', 'invitation');
    await expect(enqueue('c@fourth.example', 'otp')).rejects.toMatchObject({ code: 'MAIL_RATE_LIMITED' });
    // Notifications are not capped.
    await enqueue('d@flood.example', 'notification');
    // A minute later the window has moved on.
    clock.advance(MINUTE + 1000);
    await enqueue('user9@flood.example', 'otp');
  });

  it('delivers OTP mail before mail queued earlier', async () => {
    const clock = new ManualClock('2026-05-02T10:00:00Z');
    const { mail, transport, enqueue, jobs } = service({ perMinute: 1000, perDomainPerMinute: 1000 }, clock);
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      ids.push(await enqueue(`invitee${i}@order.example`, 'invitation'));
      clock.advance(10);
    }
    ids.push(await enqueue('notify@order.example', 'notification'));
    clock.advance(10);
    const otpId = await enqueue('waiting@order.example', 'otp');
    ids.push(otpId);
    await mail.dispatch(otpId, 'otp');
    expect(jobs.sent.at(-1)).toEqual({ queue: MAIL_DELIVER_QUEUE, data: { id: otpId } });

    // The jobs run in the order they were queued, yet the OTP goes out first, then invitations, then the notification.
    const deliver = mailJobs(mail).find((job) => job.queue === MAIL_DELIVER_QUEUE)!;
    for (const id of ids) await deliver.handler({ id });
    const order = transport.delivered.map((sent) => sent.to).filter((to) => to.endsWith('@order.example'));
    expect(order[0]).toBe('waiting@order.example');
    expect(order.slice(1, 11).every((to) => to.startsWith('invitee'))).toBe(true);
    expect(order.at(-1)).toBe('notify@order.example');
    expect(new Set(order).size).toBe(12);
  });

  it('delivers several mails at once, never the same one twice', async () => {
    const clock = new ManualClock('2026-05-03T10:00:00Z');
    const { mail, transport, enqueue } = service({ perMinute: 1000, perDomainPerMinute: 1000, concurrency: 4 }, clock);
    const deliver = mailJobs(mail).find((job) => job.queue === MAIL_DELIVER_QUEUE)!;
    expect(deliver.concurrency).toBe(4);
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) ids.push(await enqueue(`bulk${i}@parallel.example`, 'invitation'));

    transport.held = true;
    // The job system runs `concurrency` handlers at once, as pg-boss workers.
    const first = Promise.all(ids.slice(0, 4).map((id) => deliver.handler({ id })));
    await expect.poll(() => transport.inFlight, { timeout: 10_000 }).toBe(4);
    transport.releaseAll();
    await first;
    await Promise.all(ids.slice(4).map((id) => deliver.handler({ id })));
    expect(transport.maxInFlight).toBe(4);
    const sent = transport.delivered.map((delivered) => delivered.to).filter((to) => to.endsWith('@parallel.example'));
    expect(sent).toHaveLength(8);
    expect(new Set(sent).size).toBe(8);
  });
});

describe('sign-in under a mail flood', () => {
  it('answers 429 with a clear message once the OTP mail cap is reached', async () => {
    const ctx = await startTestApp(kinds[0]!, { mailLimits: { perMinute: 1000, perDomainPerMinute: 3 } });
    try {
      const register = (i: number) =>
        post(ctx, '/api/user/register', { email_id: `new${i}@burst.example`, user_name: 'Dana Demo', auth_provider: 'EMAIL_OTP_AUTH' });
      for (let i = 0; i < 3; i++) expect((await register(i)).statusCode).toBe(200);
      const refused = await register(3);
      expect(refused.statusCode).toBe(429);
      expect(errorCode(refused)).toBe('MAIL_RATE_LIMITED');
      expect(errorMessage(refused)).toBe(MESSAGES.mailRateLimited);
      // Someone at another domain is not starved by the burst.
      expect(
        (
          await post(ctx, '/api/user/register', {
            email_id: 'calm@elsewhere.example',
            user_name: 'Calm Customer',
            auth_provider: 'EMAIL_OTP_AUTH',
          })
        ).statusCode,
      ).toBe(200);
    } finally {
      await ctx.close();
    }
  });
});
