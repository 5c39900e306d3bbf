import { createHmac, generateKeyPair, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { promisify } from 'node:util';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Adapter, AdapterFactory, AdapterPayload, Configuration, JWK, KoaContextWithOIDC } from 'oidc-provider';
import { z } from 'zod';
import { HEADERS, MESSAGES, PRODUCT, emailSchema } from '@kumo/contract';
import { messagePage, signInPage } from './dev-identity-pages.js';

/** Where the bundled provider lives inside the portal; its issuer is `${publicUrl}${DEV_IDENTITY_PATH}`. */
export const DEV_IDENTITY_PATH = '/dev/oidc';
export const DEV_IDENTITY_CLIENT_ID = 'kumo-portal';
const SCOPE = 'openid email profile';

export interface DevIdentityProviderSettings {
  publicUrl: string;
  /** The portal's callback, the only redirect URI its client may use. */
  redirectUri: string;
  /** Server secret: the client secret and the provider's cookie keys are derived from it. */
  secret: string;
  logger: FastifyBaseLogger;
  /** An identity the sign-in page suggests (the demo staff member). */
  hint?: string;
  /** Where the provider's error pages lead back to. */
  returnPath?: string;
}

/** A running development provider: what a client needs to use it, and the routes that serve it. */
export interface DevIdentityProvider {
  issuer: URL;
  clientId: string;
  clientSecret: string;
  routes: (app: FastifyInstance) => Promise<void>;
}

const derive = (secret: string, purpose: string) => createHmac('sha256', secret).update(`dev-oidc:${purpose}`).digest('base64url');

/**
 * An OpenID Connect provider (oidc-provider) for development, demos and tests: the real protocol
 * (discovery, authorization code with PKCE, signed ID tokens) with a sign-in page that accepts any
 * e-mail address. Keys and sessions live in memory, so it serves one process. The portal never
 * trusts it for more than an e-mail: who is staff is the portal's own decision.
 */
export async function createDevIdentityProvider(settings: DevIdentityProviderSettings): Promise<DevIdentityProvider> {
  const { publicUrl, redirectUri, secret, logger, hint } = settings;
  // Loaded only when needed: with an outside issuer configured the provider is never imported.
  const { default: Provider, interactionPolicy, errors } = await import('oidc-provider');
  const issuer = new URL(`${publicUrl}${DEV_IDENTITY_PATH}`);
  const clientSecret = derive(secret, 'client-secret');
  const returnLink = { href: `${publicUrl}${settings.returnPath ?? '/admin/login'}`, label: `Back to ${PRODUCT.shortName}` };

  // The development provider asks who you are on every sign-in instead of remembering the last
  // identity, so trying another e-mail never needs a sign-out at the provider.
  const policy = interactionPolicy.base();
  policy
    .get('login')
    ?.checks.add(
      new interactionPolicy.Check('every_sign_in', 'the development provider asks on every sign-in', (ctx) => !ctx.oidc.result?.login),
    );

  const configuration: Configuration = {
    clients: [
      {
        client_id: DEV_IDENTITY_CLIENT_ID,
        client_secret: clientSecret,
        client_name: PRODUCT.shortName,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    responseTypes: ['code'],
    adapter: memoryAdapter(),
    // Seconds. A sign-in takes minutes; the provider's own session lasts a working day.
    ttl: { AuthorizationCode: 60, AccessToken: 600, IdToken: 600, Interaction: 600, Session: 8 * 3600, Grant: 8 * 3600 },
    pkce: { required: () => true },
    jwks: { keys: [await signingKey()] },
    cookies: {
      keys: [derive(secret, 'cookies')],
      long: { signed: true, httpOnly: true, sameSite: 'lax' },
      short: { signed: true, httpOnly: true, sameSite: 'lax' },
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'preferred_username'] },
    // Put the e-mail in the ID token itself, as Azure AD does, rather than only behind the userinfo endpoint.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false }, rpInitiatedLogout: { enabled: false } },
    interactions: { policy, url: (_ctx, interaction) => `${DEV_IDENTITY_PATH}/interaction/${interaction.uid}` },
    findAccount: (_ctx, sub) => ({
      accountId: sub,
      claims: () => ({ sub, email: sub, email_verified: true, preferred_username: sub, name: sub }),
    }),
    // The portal is the provider's only client and a first-party one: consent is implied.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const { client, session, result, provider } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grantId = result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      const existing = grantId ? await provider.Grant.find(grantId) : undefined;
      if (existing?.accountId === session.accountId) return existing;
      const grant = new provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope(SCOPE);
      await grant.save();
      session.grantIdFor(client.clientId, grant.jti);
      return grant;
    },
    renderError: (ctx, out) => {
      ctx.type = 'html';
      const detail = [out.error, out.error_description].filter((part) => typeof part === 'string' && part).join(': ');
      ctx.body = messagePage({
        title: 'Sign-in cannot continue',
        message: 'The sign-in request is not valid. Start again from the portal.',
        detail,
        link: returnLink,
      });
    },
  };

  const provider = new Provider(issuer.href, configuration);
  // Read the host and protocol from X-Forwarded-*, which the routes below set to the issuer's.
  provider.proxy = true;
  provider.on('server_error', (_ctx: unknown, error: unknown) => logger.error({ err: error }, 'development identity provider failed'));
  // Koa's own event for errors outside the provider's handlers; without a listener Koa writes to stderr.
  (provider as unknown as NodeJS.EventEmitter).on('error', (error: unknown) =>
    logger.warn({ err: error }, 'development identity provider request failed'),
  );
  const handle = provider.callback();

  async function routes(app: FastifyInstance): Promise<void> {
    // Everything under the path is the provider's own protocol: it reads the raw request itself.
    await app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
      scope.route({
        method: ['GET', 'POST', 'OPTIONS'],
        url: `${DEV_IDENTITY_PATH}/*`,
        schema: { hide: true },
        handler: async (request, reply) => {
          reply.hijack();
          reply.raw.setHeader(HEADERS.correlationId, request.id);
          const raw = request.raw as IncomingMessage & { originalUrl?: string };
          raw.originalUrl = raw.url;
          raw.url = (raw.url ?? '/').slice(DEV_IDENTITY_PATH.length) || '/';
          // The provider builds its endpoint URLs from the request's host. Requests may arrive by
          // another name (the API port behind the Vite proxy, a container address), but the
          // endpoints must stay on the issuer's origin, the address the browser and the portal use.
          raw.headers['x-forwarded-host'] = issuer.host;
          raw.headers['x-forwarded-proto'] = issuer.protocol.slice(0, -1);
          await handle(raw, reply.raw);
        },
      });
    });

    // The interaction screens are the portal's: a form for the e-mail, and Cancel.
    await app.register(async (scope) => {
      scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) =>
        done(null, Object.fromEntries(new URLSearchParams(String(body)))),
      );
      const app = scope.withTypeProvider<ZodTypeProvider>();
      const params = z.object({ uid: z.string().trim().min(1).max(128) });
      const formBody = z.record(z.string(), z.string()).optional();
      const path = `${DEV_IDENTITY_PATH}/interaction/:uid`;
      const pageActions = (uid: string) => ({
        action: `${DEV_IDENTITY_PATH}/interaction/${encodeURIComponent(uid)}`,
        cancelAction: `${DEV_IDENTITY_PATH}/interaction/${encodeURIComponent(uid)}/abort`,
      });

      // The portal refuses state-changing requests whose Origin is "null", which is what a browser
      // sends for a form post from a page under Referrer-Policy: no-referrer. The sign-in form posts
      // only to this origin, so same-origin is as private and keeps the Origin header.
      const html = (reply: FastifyReply, status: number, body: string) =>
        reply
          .status(status)
          .header('cache-control', 'no-store')
          .header('referrer-policy', 'same-origin')
          .type('text/html; charset=utf-8')
          .send(body);
      const expired = (reply: FastifyReply) =>
        html(
          reply,
          400,
          messagePage({
            title: 'This sign-in has expired',
            message: 'The sign-in request is no longer valid. Start again from the portal.',
            link: returnLink,
          }),
        );

      /** The interaction this browser is in, or null when it is gone, expired or for another page. */
      async function currentInteraction(request: { raw: IncomingMessage; params: { uid: string } }, reply: FastifyReply) {
        try {
          const details = await provider.interactionDetails(request.raw, reply.raw);
          return details.uid === request.params.uid ? details : null;
        } catch (error) {
          if (error instanceof errors.SessionNotFound) return null;
          throw error;
        }
      }

      app.get(path, { schema: { hide: true, params } }, async (request, reply) => {
        const interaction = await currentInteraction(request, reply);
        if (!interaction || interaction.prompt.name !== 'login') return expired(reply);
        const loginHint = interaction.params.login_hint;
        return html(
          reply,
          200,
          signInPage({
            ...pageActions(interaction.uid),
            clientName: PRODUCT.shortName,
            email: typeof loginHint === 'string' ? loginHint : '',
            hint,
          }),
        );
      });

      app.post(path, { schema: { hide: true, params, body: formBody } }, async (request, reply) => {
        const interaction = await currentInteraction(request, reply);
        if (!interaction || interaction.prompt.name !== 'login') return expired(reply);
        const typed = request.body?.email ?? '';
        const email = emailSchema.safeParse(typed);
        if (!email.success) {
          const error = email.error.issues[0]?.message ?? MESSAGES.emailInvalid;
          return html(
            reply,
            400,
            signInPage({ ...pageActions(interaction.uid), clientName: PRODUCT.shortName, email: typed, error, hint }),
          );
        }
        const returnTo = await provider.interactionResult(
          request.raw,
          reply.raw,
          { login: { accountId: email.data, remember: false } },
          { mergeWithLastSubmission: false },
        );
        return reply.header('cache-control', 'no-store').redirect(returnTo, 303);
      });

      app.post(`${path}/abort`, { schema: { hide: true, params, body: formBody } }, async (request, reply) => {
        const interaction = await currentInteraction(request, reply);
        if (!interaction) return expired(reply);
        const returnTo = await provider.interactionResult(
          request.raw,
          reply.raw,
          { error: 'access_denied', error_description: 'The person cancelled the sign-in.' },
          { mergeWithLastSubmission: false },
        );
        return reply.header('cache-control', 'no-store').redirect(returnTo, 303);
      });
    });
  }

  return { issuer, clientId: DEV_IDENTITY_CLIENT_ID, clientSecret, routes };
}

/** A fresh RS256 key per process: ID tokens from an earlier run are meaningless anyway. */
async function signingKey(): Promise<JWK> {
  const { privateKey } = await promisify(generateKeyPair)('rsa', { modulusLength: 2048 });
  return { ...(privateKey.export({ format: 'jwk' }) as JWK), kid: randomUUID(), use: 'sig', alg: 'RS256' };
}

/** Models whose entries are revoked with their grant. */
const GRANT_BOUND = new Set(['AccessToken', 'AuthorizationCode', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest']);
const MAX_ENTRIES = 5000;

/**
 * The provider's state in this process's memory: bounded (oldest entries go first) and honouring
 * each entry's expiry. Enough for a development provider that serves one process.
 */
function memoryAdapter(): AdapterFactory {
  const store = new Map<string, { value: unknown; expiresAt: number }>();
  const read = (key: string): unknown => {
    const entry = store.get(key);
    if (entry && entry.expiresAt <= Date.now()) store.delete(key);
    return entry && entry.expiresAt > Date.now() ? entry.value : undefined;
  };
  const write = (key: string, value: unknown, expiresInSeconds?: number) => {
    store.delete(key);
    store.set(key, { value, expiresAt: expiresInSeconds ? Date.now() + expiresInSeconds * 1000 : Number.POSITIVE_INFINITY });
    if (store.size > MAX_ENTRIES) store.delete(store.keys().next().value!);
  };
  const grantMembers = (grantId: string) => (read(`grant:${grantId}`) as string[] | undefined) ?? [];

  return (model: string): Adapter => ({
    async upsert(id, payload, expiresIn) {
      write(`${model}:${id}`, payload, expiresIn);
      if (model === 'Session' && payload.uid) write(`sessionUid:${payload.uid}`, id, expiresIn);
      if (GRANT_BOUND.has(model) && payload.grantId)
        write(`grant:${payload.grantId}`, [...grantMembers(payload.grantId), `${model}:${id}`]);
    },
    async find(id) {
      return read(`${model}:${id}`) as AdapterPayload | undefined;
    },
    async findByUid(uid) {
      const id = read(`sessionUid:${uid}`);
      return typeof id === 'string' ? (read(`${model}:${id}`) as AdapterPayload | undefined) : undefined;
    },
    // The device flow is not enabled.
    async findByUserCode() {
      return undefined;
    },
    async consume(id) {
      const payload = read(`${model}:${id}`) as AdapterPayload | undefined;
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    },
    async destroy(id) {
      store.delete(`${model}:${id}`);
    },
    async revokeByGrantId(grantId) {
      for (const key of grantMembers(grantId)) store.delete(key);
      store.delete(`grant:${grantId}`);
    },
  });
}
