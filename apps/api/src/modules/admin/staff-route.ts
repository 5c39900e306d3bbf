import type { FastifySchema } from 'fastify';
import { requireStaff, type changesState, type TokenVerifier } from '../../http/auth-guard.js';
import type { idempotent } from '../../http/idempotency.js';
import { routeDeclarations } from '../../http/route.js';

const routes = routeDeclarations('Admin');

/**
 * The declaration of an admin route: the guard and the permission key it checks, from one value; `writes` marks a
 * GET that changes state (it is recorded, and refused to a customer view), or a POST that takes an Idempotency-Key.
 */
export function staffRoutes(verify: TokenVerifier) {
  return <S extends FastifySchema>(permission: string, schema: S, writes?: typeof changesState | typeof idempotent) => ({
    ...routes.behind(requireStaff(verify, permission))(schema),
    config: { permission, ...writes },
  });
}
export type StaffRoute = ReturnType<typeof staffRoutes>;
