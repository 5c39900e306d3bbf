/** The api-tokens module's public face: personal API tokens (made, listed, revoked, verified) and their routes. */
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/client.js';
import type { TokenHasher } from '../../lib/crypto.js';
import { createApiTokensRepository } from './api-tokens.repository.js';
import { createApiTokensService as createService } from './api-tokens.service.js';

export type { ApiTokensService } from './api-tokens.service.js';
export { apiTokensRoutes } from './api-tokens.routes.js';
export { isApiTokenSecret } from './secret.js';

export function createApiTokensService(deps: { db: Database; clock: Clock; hasher: TokenHasher }) {
  return createService({ repository: createApiTokensRepository(deps.db), clock: deps.clock, hasher: deps.hasher });
}
