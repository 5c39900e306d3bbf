import { join } from 'node:path';
import { ConfigError, loadConfig } from './config.js';
import { createStaffIdentity } from './adapters/identity/staff-identity.js';
import { createDevMailboxTransport, createSmtpTransport } from './adapters/mail/mail-transport.js';
import { buildApp, defaultConsoleDir } from './app.js';
import { systemClock } from './clock.js';
import { openDatabase, type DatabaseHandle } from './db/client.js';
import { DataDirInUseError, DataDirUnreachableError } from './db/embedded.js';
import { createRateLimitStore } from './http/rate-limit-store.js';
import { DEMO_STAFF, seedDemoWhenAsked } from './demo/seed.js';
import { startJobQueue } from './jobs/boss.js';
import { lateBoundQueue } from './jobs/late-bound-queue.js';
import { createLogger } from './logger.js';
import { deriveServerKeys } from './lib/keys.js';
import { StoredSecretMismatchError, loadAuthSecret } from './modules/auth/index.js';
import { SSO_PATHS } from './modules/staff-sso/index.js';
import { createServices, serviceJobs, type Infrastructure } from './services.js';
import { startupBanner } from './startup-banner.js';

// Set once the database is open: a failed start or a signal during start-up still stops the embedded PostgreSQL.
let openedDatabase: DatabaseHandle | undefined;
const stopDuringStartup = () => void (openedDatabase?.close() ?? Promise.resolve()).finally(() => process.exit(1));

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL);
  process.once('SIGINT', stopDuringStartup);
  process.once('SIGTERM', stopDuringStartup);
  // Last resort: every connection and job handles its own errors, and a stray rejection must not end the process.
  process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled promise rejection'));
  // Start-up runs under one lock across every process of the portal, in one order: migrations, the job queue's
  // schema and queues, the demo data. A second process waits for the first, then finds all of it done.
  const database = await openDatabase({
    url: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    log: (message) => logger.warn(message),
    holdStartupLock: true,
  });
  openedDatabase = database;
  const clock = systemClock;
  const jobs = lateBoundQueue();
  // Without SMTP_URL, loadConfig has made sure the dev mailbox is one of the development tools.
  const mailTransport = config.SMTP_URL ? createSmtpTransport(config.SMTP_URL) : createDevMailboxTransport(logger, config.publicUrl);
  const authSecret = await loadAuthSecret(database.db, config.AUTH_SECRET, clock.now());
  const keys = deriveServerKeys(authSecret);
  const staffIdentity = await createStaffIdentity({
    issuer: config.OIDC_ISSUER,
    clientId: config.OIDC_CLIENT_ID,
    clientSecret: config.OIDC_CLIENT_SECRET,
    developmentProvider: config.devTools.identity,
    publicUrl: config.publicUrl,
    redirectUri: `${config.publicUrl}${SSO_PATHS.callback}`,
    secret: keys.text('dev-identity'),
    logger,
    hint: config.devTools.demo ? DEMO_STAFF.email : undefined,
  });
  const infra: Infrastructure = {
    db: database.db,
    clock,
    jobs,
    mailTransport,
    mailFrom: config.MAIL_FROM,
    mailLimits: {
      perMinute: config.MAIL_RATE_PER_MINUTE,
      perDomainPerMinute: config.MAIL_RATE_PER_DOMAIN_PER_MINUTE,
      concurrency: config.MAIL_CONCURRENCY,
    },
    authSecret,
    publicUrl: config.publicUrl,
    logger,
    identity: staffIdentity.provider,
    approverEmails: config.APPROVER_EMAILS,
    webhookAllowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
    autoStopDefaultMinutes: config.AUTO_STOP_DEFAULT_MINUTES,
    payments: {
      stripeSecretKey: config.STRIPE_SECRET_KEY,
      stripeWebhookSecret: config.STRIPE_WEBHOOK_SECRET,
      allowSandbox: config.devTools.sandbox,
      checkoutExpiryHours: config.CHECKOUT_EXPIRY_HOURS,
    },
    cloud: {
      driver: config.CLOUD_DRIVER,
      simTimeScale: config.SIM_TIME_SCALE,
      simFailPattern: config.SIM_FAIL_PATTERN,
      simDataDir: join(config.DATA_DIR, 'sim-clusters'),
      aws: {
        backupBucketArnPattern: config.AWS_BACKUP_BUCKET_ARN_PATTERN,
        keyName: config.AWS_KEY_NAME,
        ingressCidr: config.AWS_INGRESS_CIDR,
        portalCidr: config.AWS_PORTAL_CIDR,
      },
    },
  };
  const services = createServices(infra);
  // The queue exists and is bound before any worker runs, so nothing a worker or a request sends is refused.
  const workers = await startJobQueue(database.jobsSql, serviceJobs(services), logger);
  jobs.bind(workers.queue);
  await seedDemoWhenAsked(config, infra);
  await database.releaseStartupLock();
  const app = await buildApp({
    services,
    logger,
    ping: database.ping,
    authRateLimit: config.AUTH_RATE_LIMIT,
    rateLimitStore: createRateLimitStore(database.db, clock),
    trustProxy: config.TRUST_PROXY,
    devMailbox: mailTransport.kind === 'dev-mailbox',
    consoleDir: defaultConsoleDir,
    staffSso: { secret: keys.text('staff-sso'), publicUrl: config.publicUrl, devIdentityProvider: staffIdentity.development },
  });
  workers.startWorkers();

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
      process.exit(0);
    }
  };
  process.off('SIGINT', stopDuringStartup);
  process.off('SIGTERM', stopDuringStartup);
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.PORT, host: config.HOST });
  for (const line of startupBanner(config, staffIdentity.description)) console.log(line);
}

main().catch(async (error: unknown) => {
  if (
    error instanceof ConfigError ||
    error instanceof StoredSecretMismatchError ||
    error instanceof DataDirInUseError ||
    error instanceof DataDirUnreachableError
  ) {
    console.error(error.message);
  } else {
    console.error('Kumo Cloud failed to start:', error);
  }
  await openedDatabase?.close().catch(() => undefined);
  process.exit(1);
});
