import type { FastifyRequest } from 'fastify';
import { MESSAGES, type ApiTokenScope, type Role } from '@kumo/contract';
import { forbidden, unauthorized } from '../errors.js';

/**
 * Who is calling: what the access token says, read once by the guard (auth-guard.ts) and handed to services as is,
 * or as the plain ids a service needs (`caller.accountId`).
 */
export interface Caller {
  userId: string;
  /** The sign-in session the token belongs to. */
  sessionId: string;
  /** The account the session works in; null for staff. */
  accountId: string | null;
  role: Role;
  /**
   * userSwitched: a staff member (this user id) viewing the customer's console in the customer's name; every
   * state-changing call but the ones that end the view is refused (auth-guard.ts).
   */
  actingUserId?: string;
  /**
   * A personal API token instead of a sign-in session (`sessionId` is then the token's id): it acts as its creator,
   * within its scope, and the guard keeps it out of what only a person may do (auth-guard.ts).
   */
  apiToken?: ApiTokenGrant;
}

/** What a personal API token grants, as the guard and the audit trail need it. */
export interface ApiTokenGrant {
  tokenId: string;
  name: string;
  scope: ApiTokenScope;
}

/** A caller in the customer area: the session works in an account. */
export type AccountCaller = Caller & { accountId: string };

declare module 'fastify' {
  interface FastifyRequest {
    caller?: Caller;
  }
}

/** The caller of a guarded route. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw unauthorized('TOKEN_MISSING', MESSAGES.notSignedIn);
  return request.caller;
}

/** The caller of a customer-area route (requireAccountAdmin has made sure it works in an account). */
export function accountCallerOf(request: FastifyRequest): AccountCaller {
  const caller = callerOf(request);
  if (!caller.accountId) throw forbidden(MESSAGES.customerAreaOnly);
  return caller as AccountCaller;
}
