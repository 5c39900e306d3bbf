import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { budgetParamsSchema, budgetRequestSchema, budgetSchema } from '@kumo/contract';
import { requireAccountAdmin, type TokenVerifier } from '../../http/auth-guard.js';
import { accountCallerOf } from '../../http/caller.js';
import { errorResponses } from '../../http/error-responses.js';
import { routeDeclarations } from '../../http/route.js';
import type { BudgetsService } from './budgets.service.js';
import { toBudgetWire } from './presentation.js';

const routes = routeDeclarations('Budgets');
const errors = errorResponses(400, 401, 403, 404);

export function budgetsRoutes(budgets: BudgetsService, verify: TokenVerifier) {
  return async function register(fastify: FastifyInstance): Promise<void> {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const customer = routes.behind(requireAccountAdmin(verify));

    app.get('/api/subscription/:subscriptionId/budget', {
      ...customer({
        summary: "The subscription's monthly budget, this month's spend and forecast, and the alerts sent this month",
        description: 'Without a budget, monthly_amount is null and the thresholds are the defaults (50, 75, 90, 100).',
        params: budgetParamsSchema,
        response: { 200: budgetSchema, ...errors },
      }),
      handler: async (request) => toBudgetWire(await budgets.get(accountCallerOf(request).accountId, request.params.subscriptionId)),
    });

    app.put('/api/subscription/:subscriptionId/budget', {
      ...customer({
        summary: 'Set the monthly budget: alert thresholds, alerts on the forecast, and whether to stop the clusters at 100 %',
        description:
          'Each threshold fires once per UTC month and kind, by e-mail to the owner and the account admins. Saving checks the ' +
          'budget at once: a budget lowered below the month’s spend fires what it crosses (and, with stop_clusters_at_limit, ' +
          'stops the running clusters at 100 %); a raised one re-arms this month’s alerts above the spend.',
        params: budgetParamsSchema,
        body: budgetRequestSchema,
        response: { 200: budgetSchema, ...errors },
      }),
      handler: async (request) =>
        toBudgetWire(await budgets.put(accountCallerOf(request).accountId, request.params.subscriptionId, request.body)),
    });

    app.delete('/api/subscription/:subscriptionId/budget', {
      ...customer({
        summary: 'Remove the monthly budget and its alerts',
        params: budgetParamsSchema,
        response: { 200: budgetSchema, ...errors },
      }),
      handler: async (request) => toBudgetWire(await budgets.delete(accountCallerOf(request).accountId, request.params.subscriptionId)),
    });
  };
}
