/** The admin module's public face: the staff's customer list and views, and the four-eyes actions. */
import type { Database } from '../../db/client.js';
import { createAdminRepository } from './admin.repository.js';
import { createAdminService as createService } from './admin.service.js';
import { createCustomerViews } from './customers.service.js';
import { createFourEyes } from './four-eyes.service.js';
import { createKmAccessRepository, createOperationsRepository } from './operations.repository.js';

export type { AdminService } from './admin.service.js';
export { ADMIN_ROUTE_PERMISSIONS, adminRoutes, enforcePermissionKeys } from './admin.routes.js';

export function createAdminService(
  deps: Omit<Parameters<typeof createFourEyes>[0], 'repository'> &
    Omit<Parameters<typeof createCustomerViews>[0], 'repository'> & { db: Database },
) {
  return createService({
    repository: createAdminRepository(deps.db),
    fourEyes: createFourEyes({ ...deps, repository: createOperationsRepository(deps.db) }),
    customers: createCustomerViews({ ...deps, repository: createKmAccessRepository(deps.db) }),
    auth: deps.auth,
  });
}
