import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  MESSAGES,
  acceptInviteRequestSchema,
  accountUsersResponseSchema,
  authenticateResponseSchema,
  checkUserQuerySchema,
  checkUserResponseSchema,
  deleteUserRequestSchema,
  invitationParamsSchema,
  inviteRequestSchema,
  inviteResponseSchema,
  messageResponseSchema,
  pendingInvitationsResponseSchema,
  subscriptionOptionsResponseSchema,
} from '@kumo/contract';
import { errorResponses } from '../../http/error-responses.js';
import { personOnly, requireAccountAdmin, type TokenVerifier } from '../../http/auth-guard.js';
import { accountCallerOf } from '../../http/caller.js';
import { routeDeclarations } from '../../http/route.js';
import { sendTokens } from '../../http/send-tokens.js';
import type { UsersService } from './users.service.js';
import { idempotent } from '../../http/idempotency.js';

const routes = routeDeclarations('Account users');
const errors = errorResponses(400, 401, 403, 404, 409, 422, 429);

/**
 * Name look-ups per signed-in caller (not per address, which a caller can change): enough for the invite dialog,
 * too few to walk through a list of e-mails and learn who is registered. Counted after the guard, so per user id.
 */
export const CHECK_USER_LIMIT_PER_HOUR = 30;
const checkUserLimit = {
  max: CHECK_USER_LIMIT_PER_HOUR,
  timeWindow: '1 hour',
  keyGenerator: (request: FastifyRequest) => `check-user:${request.caller?.userId ?? request.ip}`,
};

export function usersRoutes(users: UsersService, verify: TokenVerifier, rateLimitPerMinute: number) {
  return async function register(fastify: FastifyInstance): Promise<void> {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const accountAdmin = routes.behind(requireAccountAdmin(verify));
    const rateLimit = { max: rateLimitPerMinute, timeWindow: '1 minute' };

    app.get('/api/account/users', {
      ...accountAdmin({ summary: "The logged-in account's people", response: { 200: accountUsersResponseSchema, ...errors } }),
      handler: async (request) => users.list(accountCallerOf(request)),
    });

    app.get('/api/account/users-subscriptions', {
      ...accountAdmin({
        summary: 'Subscriptions a Cluster Member can be given',
        response: { 200: subscriptionOptionsResponseSchema, ...errors },
      }),
      handler: async (request) =>
        (await users.listSubscriptions(accountCallerOf(request))).map((subscription) => ({
          subscription_id: subscription.id,
          subscription_name: subscription.name,
        })),
    });

    app.get('/api/user/check-user', {
      config: { rateLimit: checkUserLimit, ...personOnly },
      ...accountAdmin({
        summary: 'The full name of a registered e-mail',
        querystring: checkUserQuerySchema,
        response: { 200: checkUserResponseSchema, ...errors },
      }),
      handler: async (request) => ({ data: await users.checkUser(request.query.email_id) }),
    });

    app.post('/api/user/invite', {
      config: { rateLimit, ...personOnly, ...idempotent },
      ...accountAdmin({
        summary: 'Invite a person to the logged-in account by e-mail',
        body: inviteRequestSchema,
        response: { 200: inviteResponseSchema, ...errors },
      }),
      handler: async (request) => ({
        invitation_id: await users.invite(accountCallerOf(request), {
          email: request.body.invited_user_id,
          name: request.body.invited_user_name,
          role: request.body.role,
          subscriptionIds: request.body.subscription_ids,
        }),
      }),
    });

    app.get('/api/account/invitations', {
      ...accountAdmin({
        summary: "The logged-in account's invitations nobody has accepted or revoked yet",
        response: { 200: pendingInvitationsResponseSchema, ...errors },
      }),
      handler: async (request) => users.listPendingInvitations(accountCallerOf(request)),
    });

    app.post('/api/user/invite/:invitationId/resend', {
      config: { rateLimit, ...personOnly },
      ...accountAdmin({
        summary: 'Mail a pending invitation again with a new 7-day link; the previous link stops working',
        params: invitationParamsSchema,
        response: { 200: messageResponseSchema, ...errors },
      }),
      handler: async (request) => {
        await users.resendInvitation(accountCallerOf(request), request.params.invitationId);
        return { message: MESSAGES.invitationResent };
      },
    });

    app.delete('/api/user/invite/:invitationId', {
      config: personOnly,
      ...accountAdmin({
        summary: 'Revoke a pending invitation: its link no longer works',
        params: invitationParamsSchema,
        response: { 200: messageResponseSchema, ...errors },
      }),
      handler: async (request) => {
        await users.revokeInvitation(accountCallerOf(request), request.params.invitationId);
        return { message: MESSAGES.invitationRevoked };
      },
    });

    app.post('/api/user/invite/accept', {
      config: { rateLimit },
      ...routes.open({
        summary: 'Accept an invitation: join the account and sign in (tokens in headers)',
        body: acceptInviteRequestSchema,
        response: { 200: authenticateResponseSchema, ...errors },
      }),
      handler: async (request, reply) => {
        const accepted = await users.acceptInvitation(request.body.token);
        sendTokens(request, reply, accepted);
        return { role: accepted.role, sign_up: accepted.signUp };
      },
    });

    app.put('/api/account/delete-user', {
      config: personOnly,
      ...accountAdmin({
        summary: 'Remove a person from the logged-in account',
        body: deleteUserRequestSchema,
        response: { 200: messageResponseSchema, ...errors },
      }),
      handler: async (request) => {
        await users.remove(accountCallerOf(request), request.body.email_id);
        return { message: MESSAGES.userRemoved };
      },
    });
  };
}
