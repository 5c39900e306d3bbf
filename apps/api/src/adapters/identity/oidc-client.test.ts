import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { IdentityError } from './identity-provider.js';
import { createOidcClient, emailFromClaims } from './oidc-client.js';

describe('the e-mail an ID token vouches for', () => {
  it('is the email claim, lower-cased', () => {
    expect(emailFromClaims({ sub: 'x', email: ' Staff@Kumo.Cloud ' })).toBe('staff@kumo.cloud');
  });

  it("falls back to Azure AD's preferred_username, then upn", () => {
    expect(emailFromClaims({ sub: 'x', preferred_username: 'Ana@Contoso.com' })).toBe('ana@contoso.com');
    expect(emailFromClaims({ sub: 'x', preferred_username: 'not-an-email', upn: 'ana@contoso.com' })).toBe('ana@contoso.com');
  });

  it('ignores an email the provider marks unverified', () => {
    expect(emailFromClaims({ sub: 'x', email: 'someone@else.com', email_verified: false })).toBeNull();
    expect(emailFromClaims({ sub: 'x', email: 'someone@else.com', email_verified: false, upn: 'ana@contoso.com' })).toBe('ana@contoso.com');
  });

  it('is nothing when no claim holds an e-mail', () => {
    expect(emailFromClaims({ sub: 'x' })).toBeNull();
    expect(emailFromClaims({ sub: 'x', email: 42, preferred_username: 'ana' })).toBeNull();
  });
});

describe('an issuer that does not answer', () => {
  it('is reported as unavailable', async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const address = server.address();
        server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
      });
    });
    const client = createOidcClient({
      issuer: new URL(`http://127.0.0.1:${port}/nobody`),
      clientId: 'portal',
      redirectUri: 'http://127.0.0.1/callback',
    });
    const failure = await client.beginSignIn().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(IdentityError);
    expect((failure as IdentityError).failure).toBe('unavailable');
  });
});
