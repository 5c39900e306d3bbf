import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PRODUCT } from '@kumo/contract';
import { RETRY_AFTER_SECONDS } from '../../db/unavailable.js';

const statusSchema = z.object({ status: z.string(), version: z.string() });

/** Liveness and readiness for load balancers and orchestrators. */
export function systemRoutes(ping: () => Promise<void>) {
  return async function register(fastify: FastifyInstance): Promise<void> {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.get('/healthz', { schema: { tags: ['System'], summary: 'The process is up', response: { 200: statusSchema } } }, async () => ({
      status: 'ok',
      version: PRODUCT.version,
    }));
    app.get(
      '/readyz',
      { schema: { tags: ['System'], summary: 'The database answers', response: { 200: statusSchema, 503: statusSchema } } },
      async (request, reply) => {
        try {
          await ping();
          return { status: 'ready', version: PRODUCT.version };
        } catch (error) {
          request.log.warn({ err: error }, 'database not reachable');
          return reply
            .status(503)
            .header('retry-after', String(RETRY_AFTER_SECONDS))
            .send({ status: 'database unreachable', version: PRODUCT.version });
        }
      },
    );
  };
}
