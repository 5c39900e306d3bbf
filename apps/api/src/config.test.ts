import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

const AUTH_SECRET = 'a-production-secret-of-at-least-32-characters';

describe('configuration', () => {
  it('defaults to the embedded database, the dev mailbox and port 8080', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 8080, DATA_DIR: './data', demoData: true, publicUrl: 'http://localhost:8080' });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.SMTP_URL).toBeUndefined();
  });

  it('treats empty variables as unset and reads the rest', () => {
    const config = loadConfig({
      PORT: '9000',
      DATABASE_URL: '',
      SMTP_URL: 'smtp://127.0.0.1:1025',
      PUBLIC_URL: 'https://portal.example.com/',
    });
    expect(config).toMatchObject({ PORT: 9000, SMTP_URL: 'smtp://127.0.0.1:1025', publicUrl: 'https://portal.example.com' });
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('seeds demo data only on the embedded default unless asked', () => {
    const external = { DATABASE_URL: 'postgres://localhost/kumo', SMTP_URL: 'smtp://mail.example.com:587' };
    expect(loadConfig(external).demoData).toBe(false);
    expect(loadConfig({ ...external, DEV_TOOLS: 'demo' }).demoData).toBe(true);
  });

  it('gives new clusters 60 idle minutes before auto-stop, or what AUTO_STOP_DEFAULT_MINUTES says', () => {
    expect(loadConfig({}).AUTO_STOP_DEFAULT_MINUTES).toBe(60);
    expect(loadConfig({ AUTO_STOP_DEFAULT_MINUTES: 'off' }).AUTO_STOP_DEFAULT_MINUTES).toBeNull();
    expect(loadConfig({ AUTO_STOP_DEFAULT_MINUTES: '15' }).AUTO_STOP_DEFAULT_MINUTES).toBe(15);
    for (const wrong of ['9', '1441', '12.5', 'never']) {
      expect(() => loadConfig({ AUTO_STOP_DEFAULT_MINUTES: wrong })).toThrow(/AUTO_STOP_DEFAULT_MINUTES must be off or a whole number/);
    }
  });

  it('lists every invalid variable in one error', () => {
    expect(() => loadConfig({ PORT: 'eighty', SMTP_URL: 'not a url', AUTH_SECRET: 'short' })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: 'eighty', SMTP_URL: 'not a url', AUTH_SECRET: 'short' });
    } catch (error) {
      expect((error as Error).message).toMatch(/PORT/);
      expect((error as Error).message).toMatch(/SMTP_URL/);
      expect((error as Error).message).toMatch(/AUTH_SECRET must be at least 32 characters/);
    }
  });

  it('refuses production without an SMTP server, so OTPs never land in a dev mailbox', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', AUTH_SECRET })).toThrow(/SMTP_URL is required in production/);
  });

  it('refuses production without AUTH_SECRET, so the master secret is never kept in the database', () => {
    const production = { NODE_ENV: 'production', SMTP_URL: 'smtp://mail.example.com:587', DATABASE_URL: 'postgres://db.example.com/kumo' };
    expect(() => loadConfig(production)).toThrow(/AUTH_SECRET is required in production/);
    expect(() => loadConfig({ ...production, AUTH_SECRET: '   ' })).toThrow(/AUTH_SECRET is required in production/);
    expect(() => loadConfig({ ...production, AUTH_SECRET: 'short' })).toThrow(/AUTH_SECRET must be at least 32 characters/);
    expect(loadConfig({ ...production, AUTH_SECRET }).AUTH_SECRET).toBe(AUTH_SECRET);
    // Outside production a generated secret may still be kept in the database (development only).
    expect(loadConfig({ SMTP_URL: production.SMTP_URL, DATABASE_URL: production.DATABASE_URL }).AUTH_SECRET).toBeUndefined();
    expect(loadConfig({}).AUTH_SECRET).toBeUndefined();
  });

  describe('development tools', () => {
    const ALL = { identity: true, mailbox: true, sandbox: true, demo: true };
    const NONE = { identity: false, mailbox: false, sandbox: false, demo: false };
    const external = { DATABASE_URL: 'postgres://db.example.com/kumo', SMTP_URL: 'smtp://mail.example.com:587' };
    const stripe = { STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1' };
    const oidc = { OIDC_ISSUER: 'https://login.example.com', OIDC_CLIENT_ID: 'portal' };

    it.each([
      ['the embedded default', {}, ALL],
      ['the embedded default in development', { NODE_ENV: 'development' }, ALL],
      ['DATABASE_URL and SMTP_URL as the operations guide shows, no NODE_ENV', external, NONE],
      ['DATABASE_URL with NODE_ENV=development', { ...external, NODE_ENV: 'development' }, NONE],
      ['DATABASE_URL with NODE_ENV=test', { ...external, NODE_ENV: 'test' }, NONE],
      ['DATABASE_URL naming two tools', { ...external, DEV_TOOLS: 'sandbox, demo' }, { ...NONE, sandbox: true, demo: true }],
      ['DATABASE_URL naming every tool', { DATABASE_URL: external.DATABASE_URL, DEV_TOOLS: 'identity,mailbox,sandbox,demo' }, ALL],
      ['the embedded default naming none', { SMTP_URL: external.SMTP_URL, DEV_TOOLS: 'none' }, NONE],
      ['the embedded default naming one', { SMTP_URL: external.SMTP_URL, DEV_TOOLS: 'identity' }, { ...NONE, identity: true }],
      [
        'the embedded default with real mail, payments and SSO',
        { SMTP_URL: external.SMTP_URL, ...stripe, ...oidc },
        { ...NONE, demo: true },
      ],
      ['production on the embedded default', { NODE_ENV: 'production', SMTP_URL: external.SMTP_URL, AUTH_SECRET }, NONE],
      ['production with DATABASE_URL', { ...external, NODE_ENV: 'production', AUTH_SECRET }, NONE],
    ])('%s', (_case, env, expected) => {
      expect(loadConfig(env).devTools).toEqual(expected);
    });

    it('refuses to start with DATABASE_URL and no SMTP server rather than keep mail in a dev mailbox anyone can read', () => {
      expect(() => loadConfig({ DATABASE_URL: external.DATABASE_URL })).toThrow(/SMTP_URL is required unless DEV_TOOLS names mailbox/);
      expect(() => loadConfig({ DEV_TOOLS: 'demo' })).toThrow(/SMTP_URL is required unless DEV_TOOLS names mailbox/);
      expect(loadConfig({ DATABASE_URL: external.DATABASE_URL, DEV_TOOLS: 'mailbox' }).devTools.mailbox).toBe(true);
    });

    it('refuses development tools in production even when named', () => {
      expect(() => loadConfig({ ...external, NODE_ENV: 'production', DEV_TOOLS: 'sandbox', AUTH_SECRET })).toThrow(/refused in production/);
      expect(() => loadConfig({ NODE_ENV: 'production', DEV_TOOLS: 'mailbox', AUTH_SECRET })).toThrow(ConfigError);
      expect(loadConfig({ ...external, NODE_ENV: 'production', DEV_TOOLS: 'none', AUTH_SECRET }).devTools).toEqual(NONE);
    });

    it('refuses unknown tool names and the replaced DEMO_DATA', () => {
      expect(() => loadConfig({ DEV_TOOLS: 'identity,payments' })).toThrow(/DEV_TOOLS is `none` or a comma list .*not payments/);
      expect(() => loadConfig({ ...external, DEMO_DATA: 'true' })).toThrow(/DEMO_DATA is replaced by DEV_TOOLS/);
    });
  });
});
