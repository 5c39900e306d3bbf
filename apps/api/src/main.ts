import { ConfigError, loadConfig } from './config.js';
import { createStaffIdentity } from './adapters/identity/staff-identity.js';
import { createDevMailboxTransport, createSmtpTransport } from './adapters/mail/mail-transport.js';
import { buildApp, defaultConsoleDir } from './app.js';
import { systemClock } from './clock.js';
import { openDatabase } from './db/client.js';
import { DataDirLockedError, lockDataDir } from './db/data-dir-lock.js';
import { DEMO_CUSTOMER, DEMO_STAFF, seedDemoData } from './demo/seed.js';
import { startJobs } from './jobs/boss.js';
import { lateBoundQueue } from './jobs/late-bound-queue.js';
import { createLogger } from './logger.js';
import { loadAuthSecret } from './modules/auth/server-secret.js';
import { moneyJobs } from './modules/billing/index.js';
import { mailJobs } from './modules/mail/mail.service.js';
import { SSO_PATHS } from './modules/staff-sso/sso-transaction.js';
import { createServices } from './services.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL);
  const releaseDataDir = config.DATABASE_URL ? () => undefined : lockDataDir(config.DATA_DIR);
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR });
  const clock = systemClock;
  const jobs = lateBoundQueue();
  const mailTransport = config.SMTP_URL ? createSmtpTransport(config.SMTP_URL) : createDevMailboxTransport(logger, config.publicUrl);
  const authSecret = await loadAuthSecret(database.db, config.AUTH_SECRET, clock.now());
  const staffIdentity = await createStaffIdentity({
    issuer: config.OIDC_ISSUER,
    clientId: config.OIDC_CLIENT_ID,
    clientSecret: config.OIDC_CLIENT_SECRET,
    production: config.NODE_ENV === 'production',
    publicUrl: config.publicUrl,
    redirectUri: `${config.publicUrl}${SSO_PATHS.callback}`,
    secret: authSecret,
    logger,
    hint: config.demoData ? DEMO_STAFF.email : undefined,
  });
  const services = createServices({
    db: database.db,
    clock,
    jobs,
    mailTransport,
    mailFrom: config.MAIL_FROM,
    authSecret,
    publicUrl: config.publicUrl,
    logger,
    identity: staffIdentity.provider,
    payments: {
      stripeSecretKey: config.STRIPE_SECRET_KEY,
      stripeWebhookSecret: config.STRIPE_WEBHOOK_SECRET,
      allowSandbox: config.NODE_ENV !== 'production',
    },
  });
  const app = await buildApp({
    services,
    logger,
    ping: database.ping,
    authRateLimit: config.AUTH_RATE_LIMIT,
    devMailbox: mailTransport.kind === 'dev-mailbox',
    consoleDir: defaultConsoleDir,
    staffSso: { secret: authSecret, publicUrl: config.publicUrl, devIdentityProvider: staffIdentity.development },
  });
  const workers = await startJobs(database.jobsSql, [...mailJobs(services.mail), ...moneyJobs(services)], logger);
  jobs.bind(workers.queue);
  if (config.demoData) await seedDemoData(database.db, clock);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal} received: shutting down`);
    try {
      await app.close();
      await workers.stop();
      mailTransport.close();
      await database.close();
    } finally {
      releaseDataDir();
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.PORT, host: config.HOST });
  const where = config.DATABASE_URL ? 'PostgreSQL' : `embedded PGlite in ${config.DATA_DIR}`;
  const mailbox = mailTransport.kind === 'dev-mailbox' ? `dev mailbox at ${config.publicUrl}/dev/mailbox` : 'mailbox (sent over SMTP)';
  console.log(`\nKumo Cloud ${config.publicUrl}  (database: ${where}; mail: ${mailbox})`);
  console.log(`  Staff single sign-on: ${staffIdentity.description}`);
  const payments = config.STRIPE_SECRET_KEY
    ? 'Stripe Checkout'
    : config.NODE_ENV === 'production'
      ? 'off (set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET)'
      : `sandbox checkout at ${config.publicUrl}/sandbox (test card 4242 4242 4242 4242, nothing is charged)`;
  console.log(`  Card payments: ${payments}`);
  if (config.demoData) {
    console.log(`  Customer sign-in: ${config.publicUrl}/login     as ${DEMO_CUSTOMER.email}`);
    console.log(`  Staff sign-in:    ${config.publicUrl}/admin/login as ${DEMO_STAFF.email}`);
    console.log(`  One-time passwords arrive in the ${mailbox}.\n`);
  }
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    console.error(error.message);
  } else {
    console.error('Kumo Cloud failed to start:', error);
  }
  process.exit(1);
});
