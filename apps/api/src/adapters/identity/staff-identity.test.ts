import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.js';
import { createStaffIdentity } from './staff-identity.js';

const base = {
  publicUrl: 'http://localhost:8080',
  redirectUri: 'http://localhost:8080/oauth2/callback/azure',
  secret: 'a-server-secret-that-is-long-enough-for-hmac',
  logger: pino({ level: 'silent' }),
};

describe('choosing the staff identity provider', () => {
  it('uses a configured issuer and mounts nothing', async () => {
    const identity = await createStaffIdentity({
      ...base,
      developmentProvider: false,
      issuer: 'https://login.microsoftonline.com/tenant/v2.0',
      clientId: 'portal',
      clientSecret: 'secret',
    });
    expect(identity.provider).toBeDefined();
    expect(identity.development).toBeUndefined();
    expect(identity.description).toContain('login.microsoftonline.com');
  });

  it('mounts the development provider when no issuer is configured and DEV_TOOLS names it', async () => {
    const identity = await createStaffIdentity({ ...base, developmentProvider: true });
    expect(identity.provider).toBeDefined();
    expect(identity.development?.issuer.href).toBe('http://localhost:8080/dev/oidc');
    expect(identity.development?.clientSecret).not.toContain(base.secret);
  });

  it('offers no single sign-on without an issuer unless the development provider is named: it trusts any e-mail', async () => {
    const identity = await createStaffIdentity({ ...base, developmentProvider: false });
    expect(identity.provider).toBeUndefined();
    expect(identity.development).toBeUndefined();
  });
});

describe('single sign-on configuration', () => {
  const production = { NODE_ENV: 'production', SMTP_URL: 'smtp://mail.example.com:25', AUTH_SECRET: 'x'.repeat(32) };

  it('reads the issuer and client', () => {
    const config = loadConfig({ OIDC_ISSUER: 'https://issuer.example.com', OIDC_CLIENT_ID: 'portal', OIDC_CLIENT_SECRET: 's3cret' });
    expect(config).toMatchObject({ OIDC_ISSUER: 'https://issuer.example.com', OIDC_CLIENT_ID: 'portal', OIDC_CLIENT_SECRET: 's3cret' });
    expect(loadConfig({ OIDC_ISSUER: '' }).OIDC_ISSUER).toBeUndefined();
  });

  it('refuses half a configuration and a plain-http issuer in production', () => {
    expect(() => loadConfig({ OIDC_ISSUER: 'https://issuer.example.com' })).toThrow(/OIDC_CLIENT_ID is required/);
    expect(() => loadConfig({ OIDC_CLIENT_ID: 'portal' })).toThrow(/OIDC_ISSUER is required/);
    expect(() => loadConfig({ OIDC_ISSUER: 'not a url', OIDC_CLIENT_ID: 'portal' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...production, OIDC_ISSUER: 'http://issuer.example.com', OIDC_CLIENT_ID: 'portal' })).toThrow(
      /must be https/,
    );
    expect(loadConfig({ ...production, OIDC_ISSUER: 'https://issuer.example.com', OIDC_CLIENT_ID: 'portal' }).OIDC_CLIENT_ID).toBe(
      'portal',
    );
  });
});
