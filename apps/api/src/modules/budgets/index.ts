/** The budgets module's public face: the service (budgets, their alerts and the hard cap's start gate) and its routes. */
import type { Database } from '../../db/client.js';
import { createBudgetsRepository } from './budgets.repository.js';
import { createBudgetsService as createService } from './budgets.service.js';

export type { BudgetsService, BudgetValues } from './budgets.service.js';
export { budgetsRoutes } from './budgets.routes.js';

export function createBudgetsService(deps: Omit<Parameters<typeof createService>[0], 'repository'> & { db: Database }) {
  return createService({ ...deps, repository: createBudgetsRepository(deps.db) });
}
