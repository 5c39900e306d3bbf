import type { FastifyReply, FastifyRequest, FastifySchema } from 'fastify';

type Guard = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/** The bearer scheme of every guarded route in the OpenAPI document. */
const BEARER = [{ bearerAuth: [] }];

/**
 * The declaration every route of a module repeats, written once: its OpenAPI tag and, for a guarded route, the
 * guard and the bearer scheme. A route spreads one into its options and adds its own schemas and handler:
 *
 *   const customer = routes.behind(requireAccountAdmin(verify));
 *   app.get('/api/…', { ...customer({ summary, params, response }), handler });
 */
export function routeDeclarations(tag: string) {
  const tags = [tag];
  return {
    /** A route anyone may call: no guard, no security in the document. */
    open: <S extends FastifySchema>(schema: S) => ({ schema: { tags, ...schema } }),
    /** Routes behind `guard`, documented as needing a bearer token. */
    behind:
      (guard: Guard) =>
      <S extends FastifySchema>(schema: S) => ({ onRequest: guard, schema: { tags, security: BEARER, ...schema } }),
  };
}
