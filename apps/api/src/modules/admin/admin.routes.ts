import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { customerPageSchema, errorResponseSchema, pageQuerySchema } from '@kumo/contract';
import { requireStaff, type TokenVerifier } from '../../http/auth-guard.js';
import type { AdminService } from './admin.service.js';

export function adminRoutes(admin: AdminService, verify: TokenVerifier) {
  return async function register(fastify: FastifyInstance): Promise<void> {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.get('/api/admin/users', {
      preHandler: requireStaff(verify, 'customer_list'),
      schema: {
        tags: ['Admin'],
        summary: 'Customers, 50 a page',
        security: [{ bearerAuth: [] }],
        querystring: pageQuerySchema(50),
        response: { 200: customerPageSchema, 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema },
      },
      handler: async (request) => admin.listCustomers(request.query.page, request.query.size),
    });
  };
}
