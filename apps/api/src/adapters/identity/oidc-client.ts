import * as client from 'openid-client';
import { emailSchema } from '@kumo/contract';
import { IdentityError, type IdentityProvider, type ProvenIdentity, type SignInChecks } from './identity-provider.js';

export interface OidcClientSettings {
  /** The Issuer Identifier, e.g. https://login.microsoftonline.com/{tenant}/v2.0. */
  issuer: URL;
  clientId: string;
  /** Without a secret the portal is a public client (PKCE still protects the code). */
  clientSecret?: string;
  /** The portal's callback, exactly as registered with the provider. */
  redirectUri: string;
}

const SCOPE = 'openid email profile';
const REQUEST_TIMEOUT_SECONDS = 10;
/** Provider metadata is fetched again after this long, so a rotated endpoint or key set is picked up. */
const METADATA_MAX_AGE_MS = 6 * 60 * 60 * 1000;

/** An OpenID Connect relying party (openid-client): authorization code flow with PKCE, state and nonce. */
export function createOidcClient(settings: OidcClientSettings): IdentityProvider {
  const { issuer, clientId, clientSecret, redirectUri } = settings;
  let cached: { config: client.Configuration; fetchedAt: number } | undefined;
  let inFlight: Promise<client.Configuration> | undefined;

  async function discover(): Promise<client.Configuration> {
    try {
      const config = await client.discovery(
        issuer,
        clientId,
        { redirect_uris: [redirectUri], response_types: ['code'] },
        clientSecret ? client.ClientSecretPost(clientSecret) : client.None(),
        {
          // Plain http is only ever an issuer on this machine or a test network; production issuers are https.
          execute: issuer.protocol === 'http:' ? [client.allowInsecureRequests] : [],
          timeout: REQUEST_TIMEOUT_SECONDS,
        },
      );
      cached = { config, fetchedAt: Date.now() };
      return config;
    } catch (error) {
      throw new IdentityError('unavailable', `OpenID Connect discovery of ${issuer.href} failed`, { cause: error });
    }
  }

  /** Discovery happens on first use, not at start-up: the provider may be this very process. */
  function configuration(): Promise<client.Configuration> {
    if (cached && Date.now() - cached.fetchedAt < METADATA_MAX_AGE_MS) return Promise.resolve(cached.config);
    inFlight ??= discover().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  }

  return {
    async beginSignIn() {
      const config = await configuration();
      const checks: SignInChecks = {
        state: client.randomState(),
        nonce: client.randomNonce(),
        codeVerifier: client.randomPKCECodeVerifier(),
      };
      const authorizationUrl = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: SCOPE,
        state: checks.state,
        nonce: checks.nonce,
        code_challenge: await client.calculatePKCECodeChallenge(checks.codeVerifier),
        code_challenge_method: 'S256',
      });
      return { authorizationUrl, checks };
    },

    async completeSignIn(callbackUrl, checks) {
      const config = await configuration();
      let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
      try {
        tokens = await client.authorizationCodeGrant(config, callbackUrl, {
          expectedState: checks.state,
          expectedNonce: checks.nonce,
          pkceCodeVerifier: checks.codeVerifier,
          idTokenExpected: true,
        });
      } catch (error) {
        throw classify(error);
      }
      const claims = tokens.claims();
      if (!claims) throw new IdentityError('rejected', 'the token response carries no ID token');
      const email = emailFromClaims(claims);
      if (!email) throw new IdentityError('no-email', 'the ID token carries no usable e-mail claim');
      return { email, subject: claims.sub } satisfies ProvenIdentity;
    },
  };
}

/**
 * The e-mail an ID token vouches for: `email` (unless the provider says it is unverified), else
 * Azure AD's `preferred_username` or `upn` when they hold an e-mail address.
 */
export function emailFromClaims(claims: Record<string, unknown>): string | null {
  const candidates = [claims.email_verified === false ? undefined : claims.email, claims.preferred_username, claims.upn];
  for (const candidate of candidates) {
    if (typeof candidate !== 'string') continue;
    const parsed = emailSchema.safeParse(candidate.trim().toLowerCase());
    if (parsed.success) return parsed.data;
  }
  return null;
}

function classify(error: unknown): IdentityError {
  if (error instanceof client.AuthorizationResponseError) {
    const failure = error.error === 'access_denied' ? 'cancelled' : 'rejected';
    return new IdentityError(failure, `the provider answered ${error.error}: ${error.error_description ?? ''}`.trim(), { cause: error });
  }
  if (error instanceof client.ResponseBodyError) {
    return new IdentityError('rejected', `the token endpoint answered ${error.error}`, { cause: error });
  }
  // fetch() failures surface as TypeError; time-outs as TimeoutError or AbortError.
  if (error instanceof TypeError || (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))) {
    return new IdentityError('unavailable', 'the token endpoint cannot be reached', { cause: error });
  }
  const detail = error instanceof Error ? error.message : String(error);
  return new IdentityError('rejected', detail, { cause: error });
}
