import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { customerPageSchema, pageQuerySchema } from '@kumo/contract';
import { errorResponses } from '../../http/error-responses.js';
import { requireStaff, type TokenVerifier } from '../../http/auth-guard.js';
import type { AdminService } from './admin.service.js';

export function adminRoutes(admin: AdminService, verify: TokenVerifier) {
  return async function register(fastify: FastifyInstance): Promise<void> {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.get('/api/admin/users', {
      onRequest: requireStaff(verify, 'customer_list'),
      schema: {
        tags: ['Admin'],
        summary: 'Customers, 50 a page',
        security: [{ bearerAuth: [] }],
        querystring: pageQuerySchema(50),
        response: { 200: customerPageSchema, ...errorResponses(400, 401, 403) },
      },
      handler: async (request) => admin.listCustomers(request.query.page, request.query.size),
    });
  };
}
