/** The notices module's public face: the notices service others write through, and its routes. */
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/client.js';
import { createNoticesRepository } from './notices.repository.js';
import { createNoticesService as createService } from './notices.service.js';

export type { NoticeDraft, NoticeListener, NoticePageValues, NoticeValue, NoticesService } from './notices.service.js';
export { noticesRoutes } from './notices.routes.js';

export function createNoticesService(deps: { db: Database; clock: Clock }) {
  return createService({ repository: createNoticesRepository(deps.db), clock: deps.clock });
}
