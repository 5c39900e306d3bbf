import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { databaseKinds } from '../../test/support/databases.js';
import { errorCode, signUp, startTestApp, type TestContext } from '../../test/support/harness.js';

// The client's address decides its rate-limit quota; the database makes no difference here.
const [kind] = await databaseKinds();
const LIMIT = 5;

describe('TRUST_PROXY', () => {
  it('is off unless configured, and takes a hop count or a list of addresses', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16' }).TRUST_PROXY).toEqual(['10.0.0.1', '192.168.0.0/16']);
    expect(() => loadConfig({ TRUST_PROXY: 'everyone!' })).toThrow(/TRUST_PROXY/);
  });
});

describe('a client that rotates X-Forwarded-For or X-Real-IP', () => {
  let ctx: TestContext | undefined;
  afterEach(async () => {
    await ctx?.close();
    ctx = undefined;
  });

  const login = (headers: Record<string, string>, remoteAddress = '203.0.113.7') =>
    ctx!.app.inject({
      method: 'POST',
      url: '/api/user/login',
      remoteAddress,
      headers,
      payload: { email_id: 'nobody@example.com', auth_provider: 'EMAIL_OTP_AUTH' },
    });

  it('gets no fresh rate-limit quota when no proxy is trusted', async () => {
    ctx = await startTestApp(kind!, { authRateLimit: LIMIT });
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 3; i++) {
      statuses.push((await login({ 'x-forwarded-for': `198.51.100.${i}`, 'x-real-ip': `192.0.2.${i}` })).statusCode);
    }
    expect(statuses.slice(0, LIMIT).every((status) => status !== 429)).toBe(true);
    expect(statuses.slice(LIMIT)).toEqual([429, 429, 429]);
  });

  it('gets no extra OTP guesses either', async () => {
    ctx = await startTestApp(kind!, { authRateLimit: 10_000 });
    await signUp(ctx, 'guesser@example.com');
    await ctx.app.close();
    await ctx.database.close();
    ctx = await startTestApp(kind!, { authRateLimit: LIMIT });
    const codes: (string | undefined)[] = [];
    for (let i = 0; i < LIMIT + 2; i++) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/user/authenticate',
        remoteAddress: '203.0.113.9',
        headers: { 'x-forwarded-for': `198.51.100.${i}`, 'x-real-ip': `192.0.2.${i}` },
        payload: { email_id: 'guesser@example.com', otp: String(100000 + i), user_name: '' },
      });
      codes.push(response.statusCode === 429 ? errorCode(response) : 'guess');
    }
    expect(codes.slice(0, LIMIT).every((code) => code === 'guess')).toBe(true);
    expect(codes.slice(LIMIT)).toEqual(['RATE_LIMITED', 'RATE_LIMITED']);
  });

  it('is keyed by the right-most hop when one proxy is trusted', async () => {
    ctx = await startTestApp(kind!, { authRateLimit: LIMIT, trustProxy: 1 });
    // The proxy appends the address it saw; whatever the client wrote before it is ignored.
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 2; i++) {
      statuses.push((await login({ 'x-forwarded-for': `198.51.100.${i}, 203.0.113.50` }, '10.0.0.2')).statusCode);
    }
    expect(statuses.slice(LIMIT)).toEqual([429, 429]);
    // Another real client behind the same proxy has its own quota.
    expect((await login({ 'x-forwarded-for': '203.0.113.51' }, '10.0.0.2')).statusCode).not.toBe(429);
  });
});
