/** The users module's public face: account users and invitations. */
import type { Database } from '../../db/client.js';
import { createUsersRepository } from './users.repository.js';
import { createUsersService as createService } from './users.service.js';

export type { PersonTokens, SubscriptionDirectory, UsersService } from './users.service.js';
export { usersRoutes } from './users.routes.js';

export function createUsersService(deps: Omit<Parameters<typeof createService>[0], 'repository'> & { db: Database }) {
  return createService({ ...deps, repository: createUsersRepository(deps.db) });
}
