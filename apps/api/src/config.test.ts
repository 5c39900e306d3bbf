import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

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
    expect(loadConfig({ DATABASE_URL: 'postgres://localhost/kumo' }).demoData).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://localhost/kumo', DEMO_DATA: 'true' }).demoData).toBe(true);
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
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/SMTP_URL is required in production/);
  });
});
