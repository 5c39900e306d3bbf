import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { helpLinksResponseSchema } from '@kumo/contract';

/** Help pages per section of the portal, relative to the documentation site. */
const HELP_LINKS = {
  home: '/getting-started',
  cost_analysis: '/billing/cost-analysis',
  subscriptions: '/billing/subscriptions-and-funds',
  clusters: '/clusters/deploy-and-operate',
  users: '/account/users-and-roles',
  admin_customers: '/operations/customers',
};

export function helpRoutes(docsBaseUrl: string) {
  return async function register(fastify: FastifyInstance): Promise<void> {
    fastify.withTypeProvider<ZodTypeProvider>().get('/api/saas-common/help-document-links', {
      schema: { tags: ['Help'], summary: 'Documentation links per section', response: { 200: helpLinksResponseSchema } },
      handler: async () => ({ BASE_URL: docsBaseUrl, links: HELP_LINKS }),
    });
  };
}
