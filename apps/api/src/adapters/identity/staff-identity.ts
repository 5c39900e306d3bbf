import type { FastifyBaseLogger } from 'fastify';
import { createDevIdentityProvider, type DevIdentityProvider } from './dev-identity-provider.js';
import type { IdentityProvider } from './identity-provider.js';
import { createOidcClient } from './oidc-client.js';

export interface StaffIdentitySettings {
  /** An outside issuer (Azure AD or another OpenID Connect provider); absent means the development provider, if allowed. */
  issuer?: string;
  clientId?: string;
  clientSecret?: string;
  /** Only when DEV_TOOLS names it (never in production): the development provider lets anyone claim any e-mail. */
  developmentProvider: boolean;
  publicUrl: string;
  redirectUri: string;
  secret: string;
  logger: FastifyBaseLogger;
  /** The identity the development sign-in page suggests. */
  hint?: string;
}

export interface StaffIdentity {
  /** Proves staff identities; absent when single sign-on is not available. */
  provider?: IdentityProvider;
  /** The bundled provider to mount, when it is the one in use. */
  development?: DevIdentityProvider;
  /** For the start-up line. */
  description: string;
}

/** Chooses the identity provider for staff single sign-on from the configuration. */
export async function createStaffIdentity(settings: StaffIdentitySettings): Promise<StaffIdentity> {
  const { issuer, clientId, clientSecret, redirectUri } = settings;
  if (issuer && clientId) {
    return {
      provider: createOidcClient({ issuer: new URL(issuer), clientId, clientSecret, redirectUri }),
      description: `OpenID Connect issuer ${issuer}`,
    };
  }
  if (!settings.developmentProvider) return { description: 'off, staff sign in by OTP (set OIDC_ISSUER and OIDC_CLIENT_ID)' };
  const development = await createDevIdentityProvider(settings);
  const provider = createOidcClient({
    issuer: development.issuer,
    clientId: development.clientId,
    clientSecret: development.clientSecret,
    redirectUri,
  });
  return {
    provider,
    development,
    description: `development identity provider at ${development.issuer.href} (anyone may sign in as any staff e-mail)`,
  };
}
