import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSIONS, CURRENT_API_VERSION, MESSAGES } from '@kumo/contract';
import { databaseKinds } from '../../test/support/databases.js';
import { errorCode, get, post, signUp, startTestApp, type TestContext } from '../../test/support/harness.js';

const kinds = await databaseKinds();

describe.each(kinds)('the headers every answer carries, on %s', (kind) => {
  let ctx: TestContext;
  let jwt: string;
  beforeAll(async () => {
    ctx = await startTestApp(kind, { mailLimits: { perMinute: 1, perDomainPerMinute: 1 } });
    jwt = (await signUp(ctx, `headers.${kind}@example.com`)).jwt;
  });
  afterAll(() => ctx.close());

  it('sends Request-Id, the correlation id, on answers and names it in error bodies', async () => {
    const fine = await get(ctx, '/api/subscription/list', jwt);
    expect(fine.statusCode).toBe(200);
    expect(fine.headers['request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(fine.headers['request-id']).toBe(fine.headers['x-correlation-id']);

    const given = await ctx.app.inject({ url: '/api/nope', headers: { 'x-correlation-id': 'support-42' } });
    expect(given.statusCode).toBe(404);
    expect(given.headers['request-id']).toBe('support-42');
    expect(given.json().errorDetails.request_id).toBe('support-42');

    const invalid = await post(ctx, '/api/subscription/create', { subscription_name: '' }, jwt);
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().errorDetails.request_id).toBe(invalid.headers['request-id']);
    expect(invalid.json().field_errors).toBeDefined();
  });

  it('answers with the current Kumo-Version, accepts a listed one and refuses an unknown one by name', async () => {
    expect((await get(ctx, '/api/subscription/list', jwt)).headers['kumo-version']).toBe(CURRENT_API_VERSION);
    const asked = await ctx.app.inject({
      url: '/api/subscription/list',
      headers: { authorization: `Bearer ${jwt}`, 'kumo-version': API_VERSIONS[0] },
    });
    expect([asked.statusCode, asked.headers['kumo-version']]).toEqual([200, API_VERSIONS[0]]);

    const unknown = await ctx.app.inject({
      url: '/api/subscription/list',
      headers: { authorization: `Bearer ${jwt}`, 'kumo-version': '1999-01-01' },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().field_errors).toEqual({ 'kumo-version': MESSAGES.unknownApiVersion });
    expect(unknown.headers['kumo-version']).toBe(CURRENT_API_VERSION);
  });

  it('sends Retry-After with every 429, a limit of its own included', async () => {
    // Mail is limited to one a minute here: the second sign-in code is refused by the mail limit, not the route's.
    await post(ctx, '/api/user/login', { email_id: `headers.${kind}@example.com`, auth_provider: 'EMAIL_OTP_AUTH' });
    const refused = await post(ctx, '/api/user/login', { email_id: `headers.${kind}@example.com`, auth_provider: 'EMAIL_OTP_AUTH' });
    expect([refused.statusCode, errorCode(refused)]).toEqual([429, 'MAIL_RATE_LIMITED']);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });
});
