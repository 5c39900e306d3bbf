import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  accountAuditExportQuerySchema,
  ADMIN_MESSAGES,
  accountAuditQuerySchema,
  accountAuditResponseSchema,
  dataMessageResponseSchema,
  switchAccountRequestSchema,
  MESSAGES,
  authenticateRequestSchema,
  authenticateResponseSchema,
  loginRequestSchema,
  messageResponseSchema,
  otpSentResponseSchema,
  refreshTokenRequestSchema,
  registerRequestSchema,
  resendOtpRequestSchema,
  userDetailSchema,
} from '@kumo/contract';
import { errorResponses } from '../../http/error-responses.js';
import { requireAccountAdmin, requireSignedIn, type TokenVerifier } from '../../http/auth-guard.js';
import { callerOf } from '../../http/caller.js';
import { routeDeclarations } from '../../http/route.js';
import { sendTokens } from '../../http/send-tokens.js';
import { toAuditPageWire } from '../../lib/audit-page.js';
import { accountTrailCsv, toAccountTrailWire } from './account-trail.js';
import type { AuthService } from './auth.service.js';

const routes = routeDeclarations('Auth');
const errors = errorResponses(400, 401, 404, 409, 422, 429);
const otpSent = { otp_sent: true, message: MESSAGES.otpSent };

/**
 * `verifyBearer` takes a personal API token too: the account's audit trail is a customer read, which a token may make
 * like any other (docs/permissions.md). The sign-in calls take a session only.
 */
export function authRoutes(auth: AuthService, rateLimitPerMinute: number, verifyBearer: TokenVerifier) {
  return async function register(fastify: FastifyInstance): Promise<void> {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const rateLimit = { max: rateLimitPerMinute, timeWindow: '1 minute' };
    const signedIn = routes.behind(requireSignedIn(auth.verifyAccessToken));
    const accountAdmin = routes.behind(requireAccountAdmin(verifyBearer));

    app.post('/api/user/login', {
      config: { rateLimit },
      ...routes.open({
        summary: 'Send a sign-in OTP to a registered e-mail',
        body: loginRequestSchema,
        response: { 200: otpSentResponseSchema, ...errors },
      }),
      handler: async (request) => {
        await auth.login(request.body.email_id);
        return otpSent;
      },
    });

    // The spec names both: /api/user/signup is the same call as /api/user/register, one handler.
    for (const [path, summary] of [
      ['/api/user/register', 'Start a sign-up: send an OTP to a new e-mail'],
      ['/api/user/signup', 'Start a sign-up (same as /api/user/register)'],
    ] as const) {
      app.post(path, {
        config: { rateLimit },
        ...routes.open({ summary, body: registerRequestSchema, response: { 200: otpSentResponseSchema, ...errors } }),
        handler: async (request) => {
          await auth.register(request.body.email_id, request.body.user_name);
          return otpSent;
        },
      });
    }

    app.post('/api/user/resend-otp', {
      config: { rateLimit },
      ...routes.open({
        summary: 'Send a new OTP for the pending sign-in or sign-up',
        body: resendOtpRequestSchema,
        response: { 200: otpSentResponseSchema, ...errors },
      }),
      handler: async (request) => {
        await auth.resendOtp(request.body.email_id);
        return otpSent;
      },
    });

    app.post('/api/user/authenticate', {
      config: { rateLimit },
      ...routes.open({
        summary: 'Exchange an OTP for tokens (headers jwt_token and refresh_token)',
        body: authenticateRequestSchema,
        response: { 200: authenticateResponseSchema.describe('Tokens are in the jwt_token and refresh_token response headers'), ...errors },
      }),
      handler: async (request, reply) => {
        const result = await auth.authenticate(request.body.email_id, request.body.otp, request.body.account_id);
        sendTokens(request, reply, result);
        return { role: result.role, sign_up: result.signUp };
      },
    });

    app.post('/api/user/refresh-token', {
      config: { rateLimit },
      ...routes.open({
        summary: 'Rotate the refresh token (new tokens in headers)',
        body: refreshTokenRequestSchema,
        response: { 200: messageResponseSchema, ...errors },
      }),
      handler: async (request, reply) => {
        sendTokens(request, reply, await auth.refresh(request.body.refresh_token));
        return { message: MESSAGES.tokensRefreshed };
      },
    });

    app.post('/api/user/logout', {
      config: { rateLimit, allowWhileUserSwitched: true },
      ...signedIn({
        summary: 'End the session: its refresh tokens stop working',
        response: { 200: messageResponseSchema, ...errors },
      }),
      handler: async (request) => {
        await auth.logout(callerOf(request));
        return { message: MESSAGES.loggedOut };
      },
    });

    app.post('/api/user/switch-user/end', {
      config: { rateLimit, allowWhileUserSwitched: true },
      ...signedIn({
        summary: "End a staff member's read-only view of a customer's console (userSwitched); recorded in the customer's audit trail",
        response: { 200: messageResponseSchema, ...errorResponses(401, 403) },
      }),
      handler: async (request) => {
        await auth.endUserSwitch(callerOf(request));
        return { message: ADMIN_MESSAGES.userSwitchEnded };
      },
    });

    app.get('/api/user/detail', {
      ...signedIn({
        summary: 'The signed-in person and their accounts',
        response: { 200: userDetailSchema, ...errors },
      }),
      handler: async (request, reply) => {
        const caller = callerOf(request);
        reply.server.xsrf.ensureCookie(request, reply, caller.sessionId);
        return auth.userDetail(caller);
      },
    });

    app.get('/api/account/audit-logs', {
      ...accountAdmin({
        summary: "A month of the account's audit trail, newest first: when Kumo Cloud staff viewed its console",
        querystring: accountAuditQuerySchema,
        response: { 200: accountAuditResponseSchema, ...errorResponses(400, 401, 403, 429) },
      }),
      handler: async (request) =>
        toAuditPageWire(await auth.accountAudit(callerOf(request), request.query.page, request.query.size, request.query.startDate)),
    });

    app.get('/api/account/audit-logs/export', {
      ...accountAdmin({
        summary: "A month of the account's audit trail, cluster and staff actions, newest first, as CSV or JSON",
        querystring: accountAuditExportQuerySchema,
        produces: ['text/csv', 'application/json'],
        response: { 200: z.string().describe('text/csv, or application/json { entries: [...] }'), ...errorResponses(400, 401, 403, 429) },
      }),
      handler: async (request, reply) => {
        const entries = await auth.accountAuditExport(callerOf(request), request.query.startDate);
        const month = (request.query.startDate ?? '').slice(0, 7) || 'current';
        const json = request.query.format === 'json';
        return reply
          .type(json ? 'application/json; charset=utf-8' : 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="account-audit-${month}.${json ? 'json' : 'csv'}"`)
          .send(json ? JSON.stringify({ entries: entries.map(toAccountTrailWire) }) : accountTrailCsv(entries));
      },
    });

    app.post('/api/user/switch-account', {
      config: { rateLimit },
      ...signedIn({
        summary: 'Switch to another account of the signed-in person (new tokens in headers)',
        headers: z.object({ 'refresh-token': z.string().trim().max(512).optional() }),
        body: switchAccountRequestSchema,
        response: { 200: dataMessageResponseSchema, ...errors },
      }),
      handler: async (request, reply) => {
        const tokens = await auth.switchAccount(callerOf(request), request.headers['refresh-token'], request.body.switching_account_id);
        sendTokens(request, reply, tokens);
        return { data: MESSAGES.accountSwitched };
      },
    });
  };
}
