import type { FastifyBaseLogger } from 'fastify';
import type { IdentityProvider } from './adapters/identity/identity-provider.js';
import type { MailTransport } from './adapters/mail/mail-transport.js';
import type { PaymentsConfig } from './adapters/payments/index.js';
import type { Clock } from './clock.js';
import type { Database } from './db/client.js';
import type { JobQueue } from './jobs/job-queue.js';
import { createAdminRepository } from './modules/admin/admin.repository.js';
import { createAdminService } from './modules/admin/admin.service.js';
import { createAccessTokens } from './modules/auth/access-tokens.js';
import { createAuthRepository } from './modules/auth/auth.repository.js';
import { createAuthService } from './modules/auth/auth.service.js';
import { createMoneyServices } from './modules/billing/index.js';
import { createMailRepository } from './modules/mail/mail.repository.js';
import { createMailService } from './modules/mail/mail.service.js';
import { createStaffSsoService } from './modules/staff-sso/staff-sso.service.js';
import { createXsrf } from './http/xsrf.js';
import { createUsersRepository } from './modules/users/users.repository.js';
import { createUsersService } from './modules/users/users.service.js';

export interface Infrastructure {
  db: Database;
  clock: Clock;
  jobs: JobQueue;
  mailTransport: MailTransport;
  mailFrom: string;
  authSecret: string;
  publicUrl: string;
  logger: FastifyBaseLogger;
  /** Proves staff identities for single sign-on; absent when it is not available. */
  identity?: IdentityProvider;
  /** The payment provider: Stripe when its keys are given, the sandbox checkout otherwise. */
  payments?: PaymentsConfig;
}

/** Wires every module's service from the outside systems it needs. */
export function createServices(infra: Infrastructure) {
  const { db, clock, logger } = infra;
  const mail = createMailService({
    mailRepository: createMailRepository(db),
    transport: infra.mailTransport,
    jobs: infra.jobs,
    clock,
    from: infra.mailFrom,
    logger,
  });
  const auth = createAuthService({
    db,
    authRepository: createAuthRepository(db),
    mail,
    accessTokens: createAccessTokens(infra.authSecret, clock),
    clock,
    secret: infra.authSecret,
  });
  const admin = createAdminService({ adminRepository: createAdminRepository(db) });
  const money = createMoneyServices({ db, clock, jobs: infra.jobs, logger, publicUrl: infra.publicUrl, payments: infra.payments ?? {} });
  const users = createUsersService({
    db,
    usersRepository: createUsersRepository(db),
    auth,
    mail,
    subscriptions: money.subscriptions,
    clock,
    secret: infra.authSecret,
    publicUrl: infra.publicUrl,
  });
  const staffSso = createStaffSsoService({ identity: infra.identity, auth, clock });
  return { mail, auth, admin, users, staffSso, xsrf: createXsrf(infra.authSecret), ...money };
}
export type Services = ReturnType<typeof createServices>;
