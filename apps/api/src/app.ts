import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, jsonSchemaTransformObject, validatorCompiler } from 'fastify-type-provider-zod';
import { API_TOKEN_LIMITS, HEADERS, LIMITS, MESSAGES, PRODUCT } from '@kumo/contract';
import type { TrustProxy } from './config.js';
import type { DevIdentityProvider } from './adapters/identity/dev-identity-provider.js';
import { AppError, tooManyRequests } from './errors.js';
import { frameworkErrorOptions, registerErrorHandler } from './http/error-handler.js';
import { refuseCrossSite } from './http/xsrf.js';
import { registerApiHeaders } from './http/api-headers.js';
import { registerIdempotency } from './http/idempotency.js';
import { openapiDocument } from './http/openapi-document.js';
import { CONTENT_SECURITY_POLICY, defaultApiCacheControl } from './http/security-headers.js';
import { compressApiAnswers } from './http/compression.js';
import { responseSerializerCompiler } from './http/response-serializer.js';
import { REVALIDATE_CACHE, consolePageFile, serveConsoleFiles } from './http/console-files.js';
import { sweepRateLimits, type RateLimitStoreClass } from './http/rate-limit-store.js';
import { sandboxCheckoutRoutes } from './adapters/payments/sandbox/sandbox.routes.js';
import { adminRoutes } from './modules/admin/index.js';
import { billingRoutes, stripeWebhookRoutes } from './modules/billing/index.js';
import { clusterSqlRoutes } from './modules/cluster-sql/index.js';
import { clusterTimelineRoutes } from './modules/cluster-timeline/index.js';
import { clustersRoutes } from './modules/clusters/index.js';
import { meteringRoutes } from './modules/metering/index.js';
import { budgetsRoutes } from './modules/budgets/index.js';
import { autoTopUpRoutes } from './modules/auto-top-up/index.js';
import { autoStopRoutes } from './modules/cluster-auto-stop/index.js';
import { simPagesRoutes, simSqlRoutes } from './adapters/cloud/index.js';
import { authRoutes } from './modules/auth/index.js';
import { apiTokensRoutes } from './modules/api-tokens/index.js';
import { webhooksRoutes } from './modules/webhooks/index.js';
import { devMailboxRoutes } from './modules/mail/index.js';
import { systemRoutes } from './modules/system/index.js';
import { helpRoutes } from './modules/help/index.js';
import { subscriptionsRoutes } from './modules/subscriptions/index.js';
import { usersRoutes } from './modules/users/index.js';
import { noticesRoutes } from './modules/notices/index.js';
import { staffSsoRoutes } from './modules/staff-sso/index.js';
import type { Services } from './services.js';

export interface AppOptions {
  services: Services;
  logger: FastifyBaseLogger;
  ping: () => Promise<void>;
  authRateLimit: number;
  /** Where rate-limit counters live: PostgreSQL (createRateLimitStore), so every process of the portal counts the same hits. */
  rateLimitStore: RateLimitStoreClass;
  /** Proxies whose X-Forwarded-For is believed (TRUST_PROXY); none unless configured. */
  trustProxy?: TrustProxy;
  /** Mount /dev/mailbox: only when mail is not going to a real SMTP server. */
  devMailbox: boolean;
  /** Documentation site the Help button opens. */
  docsBaseUrl?: string;
  /** The built console to serve; omitted when it is not built (API-only tests, `npm run dev`). */
  consoleDir?: string;
  /** Staff single sign-on routes (/oauth2/...), and the development identity provider to mount when it is the one in use. */
  staffSso?: { secret: string; publicUrl: string; devIdentityProvider?: DevIdentityProvider };
}

const DOCS_BASE_URL = 'https://docs.kumo.cloud';
const CORRELATION_ID = /^[A-Za-z0-9._:-]{1,128}$/;
export const defaultConsoleDir = fileURLToPath(new URL('../../console/dist', import.meta.url));
/** Query values that are credentials: the single sign-on hand-off's token, an authorization code and a manager ticket. */
const CREDENTIAL_PARAMS = /([?&](?:token|code|sso)=)[^&#]*/g;
/** Under /oauth2/ only these are console pages; the rest is the server's single sign-on. */
const OAUTH2_PAGES = /^\/oauth2\/(?:redirect|error)\/?$/;
/** Load-balancer probes: asked many times a second, they need no request log and no browser security headers. */
const PROBE_PATHS = new Set(['/healthz', '/readyz']);

/** Logs request lines without credentials that travel in the URL. */
class CredentialSafeLogController extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    const url = request.url.replace(CREDENTIAL_PARAMS, '$1[redacted]');
    request.log.info(
      { req: { method: request.method, url, host: request.host, ip: request.ip, socket: request.socket } },
      'incoming request',
    );
  }
}

/**
 * Fastify refuses a bare hop count (it cannot check the peer), so a count becomes "the nearest N addresses
 * are proxies": the portal must then be reachable only through them, which is what setting it says.
 */
function trustProxyOption(trust: TrustProxy | undefined): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return trust > 0 ? (_address, hop) => hop < trust : false;
  return trust ?? false;
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { services } = options;
  const probeLogger = options.logger.child({}, { level: 'silent' });
  const app = Fastify({
    loggerInstance: options.logger,
    // A probe's request gets the one silent logger instead of a child logger of its own.
    childLoggerFactory: (logger, bindings, childOptions, rawRequest) =>
      PROBE_PATHS.has(rawRequest.url ?? '') ? probeLogger : logger.child(bindings, childOptions),
    bodyLimit: LIMITS.bodyMaxBytes,
    logController: new CredentialSafeLogController({
      requestIdLogLabel: 'correlationId',
      disableRequestLogging: (request) => PROBE_PATHS.has(request.url ?? ''),
    }),
    genReqId: (request) => {
      const given = request.headers[HEADERS.correlationId];
      return typeof given === 'string' && CORRELATION_ID.test(given) ? given : randomUUID();
    },
    // Believing X-Forwarded-For from anyone would let a client pick its own address, and so its own rate-limit key.
    trustProxy: trustProxyOption(options.trustProxy),
    routerOptions: { ignoreTrailingSlash: true },
    // A bad or over-long URL and an unreadable request get the contract's error shape too.
    ...frameworkErrorOptions,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler);
  registerErrorHandler(app);
  // Added before the plugins and routes, so it sees every route first: probes skip the work meant for browsers and people.
  app.addHook('onRoute', (route) => {
    if (!PROBE_PATHS.has(route.url)) return;
    route.logLevel = 'silent';
    route.helmet = false;
    // Its answer is built by the route itself: plain JSON.stringify, no validation of it on the way out.
    route.serializerCompiler = () => (data) => JSON.stringify(data);
  });
  // The API speaks JSON only: any other body is refused with 415 rather than half-parsed.
  app.removeContentTypeParser('text/plain');
  registerApiHeaders(app);
  // Before compression and the routes: it keeps each marked route's answer as it was serialised.
  registerIdempotency(app, services.idempotency);
  app.addHook('onRequest', refuseCrossSite);
  app.decorate('xsrf', services.xsrf);
  await app.register(cookie);

  await app.register(helmet, {
    contentSecurityPolicy: CONTENT_SECURITY_POLICY,
    strictTransportSecurity: { maxAge: 15_552_000, includeSubDomains: true },
  });
  app.addHook('onSend', async (request, reply) => {
    const cacheControl = defaultApiCacheControl(request.url, reply.hasHeader('cache-control'));
    if (cacheControl) reply.header('cache-control', cacheControl);
  });
  await compressApiAnswers(app);
  await app.register(rateLimit, {
    global: false,
    store: options.rateLimitStore,
    errorResponseBuilder: () => tooManyRequests('RATE_LIMITED', MESSAGES.rateLimited),
  });
  // Each personal API token's calls are counted in one window a minute, in the same shared store.
  const tokenCalls = new options.rateLimitStore({});
  app.decorate(
    'countApiTokenCall',
    (tokenId: string) =>
      new Promise<{ current: number; ttl: number }>((resolve, reject) =>
        tokenCalls.incr(
          `api-token:${tokenId}`,
          (error, result) => (error || !result ? reject(error ?? new Error('no count')) : resolve(result)),
          60_000,
          API_TOKEN_LIMITS.callsPerMinute,
        ),
      ),
  );
  const stopSweeping = sweepRateLimits(options.rateLimitStore, (error) => app.log.warn({ err: error }, 'rate-limit sweep failed'));
  const stopPurging = sweepRateLimits(services.idempotency, (error) => app.log.warn({ err: error }, 'idempotency key purge failed'));
  app.addHook('onClose', async () => {
    stopSweeping();
    stopPurging();
  });
  const document = openapiDocument(app);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: `${PRODUCT.name} API`, version: PRODUCT.version, description: 'The API behind the Kumo Cloud portal.' },
      // The routes' placeholder scheme: the finished document replaces it with the session's and the personal tokens'.
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
    transformObject: (input) => document.finish(jsonSchemaTransformObject(input)),
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  await app.register(systemRoutes(options.ping));
  await app.register(authRoutes(services.auth, options.authRateLimit, services.verifyBearer));
  await app.register(adminRoutes(services.admin, services.verifyBearer));
  await app.register(usersRoutes(services.users, services.verifyBearer, options.authRateLimit));
  await app.register(helpRoutes(options.docsBaseUrl ?? DOCS_BASE_URL));
  await app.register(subscriptionsRoutes(services.subscriptions, services.verifyBearer));
  await app.register(billingRoutes(services.billing, services.verifyBearer));
  await app.register(clustersRoutes(services.clusters, services.verifyBearer));
  await app.register(clusterTimelineRoutes(services.clusterTimeline, services.verifyBearer));
  await app.register(clusterSqlRoutes(services.clusterSql, services.verifyBearer));
  await app.register(meteringRoutes(services.metering, services.verifyBearer));
  await app.register(noticesRoutes(services.notices, services.verifyBearer));
  await app.register(budgetsRoutes(services.budgets, services.verifyBearer));
  await app.register(autoTopUpRoutes(services.autoTopUp, services.verifyBearer));
  await app.register(autoStopRoutes(services.autoStop, services.verifyBearer));
  await app.register(apiTokensRoutes(services.apiTokens, services.verifyBearer));
  await app.register(webhooksRoutes(services.webhooks, services.verifyBearer));
  // The simulated cloud's Kumo Manager and Web Portal pages.
  if (services.simulatedPages) await app.register(simPagesRoutes(services.simulatedPages));
  // The simulated clusters' SQL endpoints; their engines close with the app.
  if (services.simulatedSql) {
    await app.register(simSqlRoutes(services.simulatedSql));
    app.addHook('onClose', async () => services.simulatedSql?.cloud.engines.closeAll());
  }
  // The payment provider's side: Stripe's webhook, or the sandbox's hosted checkout pages.
  if (services.paymentGateway.kind === 'stripe') await app.register(stripeWebhookRoutes(services.billing));
  if (services.sandboxCheckout) await app.register(sandboxCheckoutRoutes(services.sandboxCheckout));
  if (options.devMailbox) await app.register(devMailboxRoutes(services.mail));
  if (options.staffSso) {
    const { devIdentityProvider, ...routeOptions } = options.staffSso;
    if (devIdentityProvider) await app.register(devIdentityProvider.routes);
    await app.register(staffSsoRoutes(services.staffSso, { ...routeOptions, rateLimitPerMinute: options.authRateLimit }));
  }
  const servesConsole = !!options.consoleDir && existsSync(options.consoleDir);
  if (servesConsole) await serveConsoleFiles(app, options.consoleDir!);
  const pageFile = servesConsole ? consolePageFile(options.consoleDir!) : () => 'index.html';

  // Unknown API paths get the error shape; any other page path gets the SPA, whose router decides.
  // The sandbox's pages are the server's too: with the sandbox off they answer 404, not a console page.
  const apiPrefixes = ['/api/', '/dev/', '/sim/', '/sandbox/', '/healthz', '/readyz'];
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const serverOnly = apiPrefixes.some((prefix) => path.startsWith(prefix)) || (path.startsWith('/oauth2/') && !OAUTH2_PAGES.test(path));
    const wantsPage = servesConsole && request.method === 'GET' && !serverOnly;
    if (wantsPage) return reply.header('cache-control', REVALIDATE_CACHE).sendFile(pageFile(path));
    return reply.status(404).send(new AppError(404, 'NOT_FOUND', MESSAGES.routeNotFound).toResponse());
  });
  return app;
}
