/** The mail module's public face: the outbox service, its jobs, and the development mailbox pages. */
import type { DbOrTx } from '../../db/client.js';
import { createMailRepository } from './mail.repository.js';
import { createMailService as createService } from './mail.service.js';

export type { MailKind, MailLimits, MailMessage, MailService } from './mail.service.js';
export { mailJobs } from './mail.service.js';
export { noticeMail } from './notice-mail.js';
export { devMailboxRoutes } from './dev-mailbox.routes.js';

export function createMailService({ db, ...deps }: Omit<Parameters<typeof createService>[0], 'repository'> & { db: DbOrTx }) {
  return createService({ ...deps, repository: createMailRepository(db) });
}
