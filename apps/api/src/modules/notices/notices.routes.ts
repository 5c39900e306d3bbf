import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  NOTICE_MESSAGES,
  markNoticesReadRequestSchema,
  markNoticesReadResponseSchema,
  noticeListQuerySchema,
  noticePageSchema,
} from '@kumo/contract';
import { errorResponses } from '../../http/error-responses.js';
import { requireSignedIn, type TokenVerifier } from '../../http/auth-guard.js';
import { accountCallerOf } from '../../http/caller.js';
import { routeDeclarations } from '../../http/route.js';
import type { NoticesService } from './notices.service.js';
import { toNoticePageWire } from './presentation.js';

const routes = routeDeclarations('Notifications');
const errors = errorResponses(400, 401, 403);

export function noticesRoutes(notices: NoticesService, verify: TokenVerifier) {
  return async function register(fastify: FastifyInstance): Promise<void> {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    // Every person of an account reads their own notices, cluster members too; staff have no account and are refused.
    const person = routes.behind(requireSignedIn(verify));

    app.get('/api/user/notifications', {
      ...person({
        summary: "The signed-in person's notices in the session's account, newest first, with the unread count",
        querystring: noticeListQuerySchema,
        response: { 200: noticePageSchema, ...errors },
      }),
      handler: async (request) => {
        const caller = accountCallerOf(request);
        const { page, size } = request.query;
        return toNoticePageWire(await notices.list(caller.accountId, caller.userId, page, size));
      },
    });

    app.post('/api/user/notifications/read', {
      ...person({
        summary: 'Mark some of your notices as read (ids), or all of them (all: true)',
        description: "Only the caller's own notices in the session's account are marked: ids of anyone else's are ignored.",
        body: markNoticesReadRequestSchema,
        response: { 200: markNoticesReadResponseSchema, ...errors },
      }),
      handler: async (request) => {
        const caller = accountCallerOf(request);
        const { ids, all } = request.body;
        const result = await notices.markRead(caller.accountId, caller.userId, all ? 'all' : (ids ?? []));
        return { message: NOTICE_MESSAGES.markedRead, ...result };
      },
    });
  };
}
