import { expect } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyBaseLogger, FastifyInstance, LightMyRequestResponse } from 'fastify';
import { pino } from 'pino';
import type { MailTransport, OutgoingMail } from '../../src/adapters/mail/mail-transport.js';
import type { PaymentsConfig } from '../../src/adapters/payments/index.js';
import type { CloudConfig } from '../../src/adapters/cloud/index.js';
import { buildApp } from '../../src/app.js';
import { createRateLimitStore } from '../../src/http/rate-limit-store.js';
import type { MailLimits } from '../../src/modules/mail/index.js';
import type { TrustProxy } from '../../src/config.js';
import { openPostgres, type DatabaseHandle } from '../../src/db/client.js';
import type { JobQueue } from '../../src/jobs/job-queue.js';
import { createServices, type Infrastructure, type Services } from '../../src/services.js';
import { openTestDatabase, type DatabaseKind } from './databases.js';
import { ManualClock } from './manual-clock.js';
import { deriveServerKeys } from '../../src/lib/keys.js';
import { checkAnswersAgainstDocument } from './answer-check.js';

export const TEST_SECRET = 'test-secret-that-is-long-enough-for-hmac-and-jwt';
/** The keys the portal derives from TEST_SECRET, for tests that sign or read what the portal does. */
export const TEST_KEYS = deriveServerKeys(TEST_SECRET);
/** The key manager tickets are signed with. */
export const TEST_TICKET_KEY = TEST_KEYS.text('manager-tickets');

/** Records what the services queue instead of running workers; mail is read from the outbox. */
export class RecordingQueue implements JobQueue {
  readonly sent: { queue: string; data: Record<string, unknown> }[] = [];
  async send(queue: string, data: Record<string, unknown>): Promise<void> {
    this.sent.push({ queue, data });
  }
}

export class RecordingTransport implements MailTransport {
  readonly kind = 'smtp' as const;
  readonly delivered: OutgoingMail[] = [];
  async send(mail: OutgoingMail): Promise<void> {
    this.delivered.push(mail);
  }
  close(): void {}
}

export interface TestContext {
  app: FastifyInstance;
  database: DatabaseHandle;
  /** What the services were built from (the demo seed builds its own from it). */
  infra: Infrastructure;
  services: Services;
  clock: ManualClock;
  jobs: RecordingQueue;
  close(): Promise<void>;
}

export async function startTestApp(
  kind: DatabaseKind,
  options: {
    authRateLimit?: number;
    payments?: PaymentsConfig;
    trustProxy?: TrustProxy;
    cloud?: CloudConfig;
    mailLimits?: Partial<MailLimits>;
    /** Where the services log (silent unless a test reads what is logged). */
    logger?: FastifyBaseLogger;
    /** A second portal on another app's database: its own pool, services and clock, nothing shared in memory. */
    sameDatabaseAs?: TestContext;
    /** With sameDatabaseAs: reach that database at this address instead (a proxy a test can cut). */
    databaseUrl?: string;
    /** WEBHOOK_ALLOW_PRIVATE: webhook receivers in a test listen on 127.0.0.1. */
    webhookAllowPrivate?: boolean;
  } = {},
): Promise<TestContext> {
  const sharedUrl = options.databaseUrl ?? options.sameDatabaseAs?.database.url;
  const database = sharedUrl ? await openPostgres(sharedUrl, kind) : await openTestDatabase(kind);
  const clock = new ManualClock('2026-03-10T09:00:00Z');
  const jobs = new RecordingQueue();
  const logger = options.logger ?? pino({ level: 'silent' });
  // The simulated clusters' engines keep their files in a folder of this portal's own, removed when it closes.
  const simDataDir = await mkdtemp(join(tmpdir(), 'kumo-sim-test-'));
  const infra: Infrastructure = {
    db: database.db,
    clock,
    jobs,
    mailTransport: new RecordingTransport(),
    mailFrom: 'Kumo Cloud <no-reply@kumo.test>',
    authSecret: TEST_SECRET,
    publicUrl: 'http://portal.test',
    logger,
    payments: options.payments,
    // Like the sign-in rate limit: tests sign many people up at one instant of the manual clock; a test of the caps sets its own.
    mailLimits: options.mailLimits ?? { perMinute: 1_000_000, perDomainPerMinute: 1_000_000 },
    cloud: { simDataDir, ...options.cloud },
    webhookAllowPrivate: options.webhookAllowPrivate,
  };
  const services = createServices(infra);
  const app = await buildApp({
    services,
    logger,
    ping: database.ping,
    authRateLimit: options.authRateLimit ?? 10_000,
    rateLimitStore: createRateLimitStore(database.db, clock),
    trustProxy: options.trustProxy,
    devMailbox: true,
  });
  await app.ready();
  checkAnswersAgainstDocument(app);
  return {
    app,
    database,
    infra,
    services,
    clock,
    jobs,
    async close() {
      await app.close();
      await database.close();
      await rm(simDataDir, { recursive: true, force: true });
    },
  };
}

/** The OTP in the newest mail to `email`. */
export async function latestOtp(ctx: TestContext, email: string): Promise<string> {
  const mails = await ctx.services.mail.listRecent(50);
  const mail = mails.find((row) => row.toAddress === email);
  const otp = mail?.textBody.match(/\b(\d{6})\b/)?.[1];
  if (!otp) throw new Error(`no OTP mail for ${email}`);
  return otp;
}

/** XSRF cookie value issued with each access token, so state-changing calls can echo it like the console does. */
const xsrfByToken = new Map<string, string>();

export function authHeaders(token?: string): Record<string, string> {
  if (!token) return {};
  const xsrf = xsrfByToken.get(token);
  return { authorization: `Bearer ${token}`, ...(xsrf ? { cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf } : {}) };
}

export function send(
  ctx: TestContext,
  method: 'POST' | 'PUT' | 'DELETE' | 'PATCH',
  url: string,
  payload?: unknown,
  token?: string,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return ctx.app.inject({ method, url, payload: payload as object, headers: { ...authHeaders(token), ...headers } });
}

export function post(ctx: TestContext, url: string, payload: unknown, token?: string): Promise<LightMyRequestResponse> {
  return send(ctx, 'POST', url, payload, token);
}

export function get(ctx: TestContext, url: string, token?: string): Promise<LightMyRequestResponse> {
  return ctx.app.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });
}

export interface Tokens {
  jwt: string;
  refresh: string;
}

export function tokensOf(response: LightMyRequestResponse): Tokens {
  const tokens = { jwt: String(response.headers.jwt_token), refresh: String(response.headers.refresh_token) };
  const xsrf = response.cookies.find((cookie) => cookie.name === 'XSRF-TOKEN')?.value;
  if (xsrf) xsrfByToken.set(tokens.jwt, xsrf);
  return tokens;
}

/** Signs a new customer up through the API and returns their tokens. */
export async function signUp(ctx: TestContext, email: string, name = 'Dana Demo'): Promise<Tokens> {
  const started = await post(ctx, '/api/user/register', { email_id: email, user_name: name, auth_provider: 'EMAIL_OTP_AUTH' });
  if (started.statusCode !== 200) throw new Error(`register failed: ${started.body}`);
  const done = await post(ctx, '/api/user/authenticate', { email_id: email, otp: await latestOtp(ctx, email), user_name: name });
  if (done.statusCode !== 200) throw new Error(`authenticate failed: ${done.body}`);
  return tokensOf(done);
}

/** Signs an existing person in through the API. */
export async function logIn(ctx: TestContext, email: string): Promise<Tokens> {
  const started = await post(ctx, '/api/user/login', { email_id: email, auth_provider: 'EMAIL_OTP_AUTH' });
  if (started.statusCode !== 200) throw new Error(`login failed: ${started.body}`);
  const done = await post(ctx, '/api/user/authenticate', { email_id: email, otp: await latestOtp(ctx, email), user_name: '' });
  if (done.statusCode !== 200) throw new Error(`authenticate failed: ${done.body}`);
  return tokensOf(done);
}

export const errorCode = (response: LightMyRequestResponse) => response.json().errorDetails?.error_code as string | undefined;
export const errorMessage = (response: LightMyRequestResponse) => response.json().errorDetails?.error_message as string | undefined;

/** An error body's errorDetails as a test expects it: its code and message, and the request id every error names. */
export const errorDetail = (code: string, message: string) => ({
  error_code: code,
  error_message: message,
  request_id: expect.any(String),
});
