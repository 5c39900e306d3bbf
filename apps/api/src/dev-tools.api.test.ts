import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@kumo/contract';
import { createStaffIdentity } from './adapters/identity/index.js';
import { buildApp } from './app.js';
import { loadConfig, type Config } from './config.js';
import { createRateLimitStore } from './http/rate-limit-store.js';
import { startupBanner } from './startup-banner.js';
import { createServices } from './services.js';
import { databaseKinds, openTestDatabase, type DatabaseKind } from '../test/support/databases.js';
import { ManualClock } from '../test/support/manual-clock.js';
import { RecordingQueue, RecordingTransport, TEST_SECRET } from '../test/support/harness.js';

const kinds = await databaseKinds();
const logger = pino({ level: 'silent' });
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers) await close();
});

/** The app as main.ts wires it from a configuration: the same development-tool switches. */
async function portalFor(kind: DatabaseKind, config: Config): Promise<FastifyInstance> {
  const database = await openTestDatabase(kind);
  const staffIdentity = await createStaffIdentity({
    issuer: config.OIDC_ISSUER,
    clientId: config.OIDC_CLIENT_ID,
    developmentProvider: config.devTools.identity,
    publicUrl: config.publicUrl,
    redirectUri: `${config.publicUrl}/oauth2/callback/azure`,
    secret: TEST_SECRET,
    logger,
  });
  const clock = new ManualClock('2026-03-10T09:00:00Z');
  const services = createServices({
    db: database.db,
    clock,
    jobs: new RecordingQueue(),
    mailTransport: new RecordingTransport(),
    mailFrom: config.MAIL_FROM,
    authSecret: TEST_SECRET,
    publicUrl: config.publicUrl,
    logger,
    identity: staffIdentity.provider,
    payments: { allowSandbox: config.devTools.sandbox },
  });
  const app = await buildApp({
    services,
    logger,
    ping: database.ping,
    authRateLimit: 10_000,
    rateLimitStore: createRateLimitStore(database.db, clock),
    devMailbox: config.devTools.mailbox,
    staffSso: { secret: TEST_SECRET, publicUrl: config.publicUrl, devIdentityProvider: staffIdentity.development },
  });
  await app.ready();
  closers.push(async () => {
    await app.close();
    await database.close();
  });
  return app;
}

const DEV_PAGES = ['/dev/oidc/.well-known/openid-configuration', '/dev/mailbox', '/dev/mailbox.json', '/sandbox/checkout.css'];

describe.each(kinds)('development tools (%s)', (kind) => {
  it('are all closed with DATABASE_URL and SMTP_URL as the operations guide shows, and the banner says so', async () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://db.example.com/kumo', SMTP_URL: 'smtp://mail.example.com:587' });
    const app = await portalFor(kind, config);
    for (const url of DEV_PAGES) expect((await app.inject({ url })).statusCode, url).toBe(404);
    // Staff single sign-on has no provider to send anyone to: only the OTP sign-in remains.
    const signOn = new URL(String((await app.inject({ url: '/oauth2/authorization/azure' })).headers.location), 'http://x');
    expect(signOn.searchParams.get('error')).toBe(MESSAGES.ssoNotConfigured);
    const banner = startupBanner(config, 'off');
    expect(banner).toContain('  Development tools on: none');
    expect(banner.join('\n')).toContain('Card payments: off (set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET)');
    expect(banner.join('\n')).not.toContain('Staff sign-in');
  });

  it('are all open on the embedded default, and the banner names each with what it lets in', async () => {
    const config = loadConfig({});
    const app = await portalFor(kind, config);
    for (const url of DEV_PAGES) expect((await app.inject({ url })).statusCode, url).toBe(200);
    // (The provider itself is reached over HTTP at PUBLIC_URL, which nothing serves here: the sign-in gets further and fails.)
    const signOn = new URL(String((await app.inject({ url: '/oauth2/authorization/azure' })).headers.location), 'http://x');
    expect(signOn.searchParams.get('error')).not.toBe(MESSAGES.ssoNotConfigured);
    const line = startupBanner(config, 'development').find((text) => text.includes('Development tools on:'));
    expect(line).toMatch(/identity \(.*\/dev\/oidc: anyone signs in as any staff e-mail\)/);
    expect(line).toMatch(/mailbox \(.*\/dev\/mailbox/);
    expect(line).toMatch(/sandbox \(.*\/sandbox/);
    expect(line).toContain('demo (');
    expect(line).toContain('NOT FOR REAL CUSTOMERS');
  });

  it('open only the one DEV_TOOLS names', async () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://db.example.com/kumo',
      SMTP_URL: 'smtp://mail.example.com:587',
      DEV_TOOLS: 'sandbox',
    });
    const app = await portalFor(kind, config);
    expect((await app.inject({ url: '/sandbox/checkout.css' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/dev/mailbox' })).statusCode).toBe(404);
    expect((await app.inject({ url: '/dev/oidc/.well-known/openid-configuration' })).statusCode).toBe(404);
    expect(startupBanner(config, 'off')[2]).toBe(
      '  Development tools on: sandbox (http://localhost:8080/sandbox: funds added without a card)',
    );
  });
});
