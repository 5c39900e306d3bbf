import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@kumo/contract';
import { databaseKinds } from '../../test/support/databases.js';
import { authHeaders, errorCode, get, signUp, startTestApp, type TestContext } from '../../test/support/harness.js';

const kinds = await databaseKinds();

const JSON_ENDPOINTS = [
  '/api/user/login',
  '/api/user/register',
  '/api/user/authenticate',
  '/api/user/resend-otp',
  '/api/user/refresh-token',
  '/api/user/logout',
];

const expectErrorShape = (body: unknown) => {
  expect(body).toMatchObject({ errorDetails: { error_code: expect.any(String), error_message: expect.any(String) } });
  expect(JSON.stringify(body)).not.toMatch(/at .*\.(ts|js):\d+/);
};

describe.each(kinds)('HTTP contract on %s', (kind) => {
  let ctx: TestContext;
  let jwt: string;
  beforeAll(async () => {
    ctx = await startTestApp(kind);
    jwt = (await signUp(ctx, `http.${kind}@example.com`)).jwt;
  });
  afterAll(() => ctx.close());

  const send = (url: string, payload: string, contentType = 'application/json') =>
    ctx.app.inject({ method: 'POST', url, payload, headers: { ...authHeaders(jwt), 'content-type': contentType } });

  describe.each(JSON_ENDPOINTS)('%s', (url) => {
    it('answers malformed JSON with 400 MALFORMED_JSON', async () => {
      const response = await send(url, '{"email_id": ');
      expect(response.statusCode).toBe(400);
      expectErrorShape(response.json());
      expect(errorCode(response)).toBe('MALFORMED_JSON');
    });

    it('answers an oversized body with 413', async () => {
      const response = await send(url, JSON.stringify({ email_id: 'a'.repeat(70 * 1024) }));
      expect(response.statusCode).toBe(413);
      expect(errorCode(response)).toBe('BODY_TOO_LARGE');
    });

    it('answers a body that is not JSON with 415', async () => {
      const response = await send(url, 'email_id=x', 'text/plain');
      expect(response.statusCode).toBe(415);
      expect(errorCode(response)).toBe('UNSUPPORTED_MEDIA_TYPE');
    });
  });

  describe.each(JSON_ENDPOINTS.filter((url) => url !== '/api/user/logout'))('%s validation', (url) => {
    it('answers missing fields with 400 and field errors', async () => {
      const response = await send(url, '{}');
      expect(response.statusCode).toBe(400);
      expectErrorShape(response.json());
      expect(errorCode(response)).toBe('VALIDATION_FAILED');
      expect(Object.keys(response.json().field_errors).length).toBeGreaterThan(0);
    });

    it('answers wrong types with 400', async () => {
      const response = await send(url, JSON.stringify({ email_id: 42, user_name: ['x'], otp: 123456, refresh_token: {} }));
      expect(response.statusCode).toBe(400);
      expect(errorCode(response)).toBe('VALIDATION_FAILED');
    });

    it('answers a JSON array or scalar with 400', async () => {
      expect((await send(url, '[1,2]')).statusCode).toBe(400);
      expect((await send(url, '"text"')).statusCode).toBe(400);
    });
  });

  it('uses the specification messages for field errors', async () => {
    const empty = await send('/api/user/login', JSON.stringify({ email_id: '' }));
    expect(empty.json().field_errors).toEqual({ email_id: MESSAGES.emailRequired });
    const malformed = await send('/api/user/register', JSON.stringify({ email_id: 'nope', user_name: 'D' }));
    expect(malformed.json().field_errors).toEqual({ email_id: MESSAGES.emailInvalid, user_name: MESSAGES.nameInvalid });
    const otp = await send('/api/user/authenticate', JSON.stringify({ email_id: 'a@example.com', otp: '12ab' }));
    expect(otp.json().field_errors).toEqual({ otp: MESSAGES.otpFormat });
  });

  it('answers an unknown API path with 404 in the error shape', async () => {
    const response = await get(ctx, '/api/nope');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      errorDetails: { error_code: 'NOT_FOUND', error_message: MESSAGES.routeNotFound, request_id: expect.any(String) },
    });
  });

  it('echoes X-Correlation-ID, or generates one', async () => {
    const given = await ctx.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-correlation-id': 'abc-123' } });
    expect(given.headers['x-correlation-id']).toBe('abc-123');
    const generated = await get(ctx, '/healthz');
    expect(generated.headers['x-correlation-id']).toMatch(/^[0-9a-f-]{36}$/);
    const hostile = await ctx.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-correlation-id': 'x'.repeat(500) } });
    expect(hostile.headers['x-correlation-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('reports health and readiness', async () => {
    expect((await get(ctx, '/healthz')).json()).toEqual({ status: 'ok', version: '1.4.0' });
    expect((await get(ctx, '/readyz')).json()).toEqual({ status: 'ready', version: '1.4.0' });
  });

  it('sends secure headers with a strict Content-Security-Policy', async () => {
    // Health probes are read by load balancers, not browsers, and skip these headers to stay cheap.
    const response = await get(ctx, '/api/openapi.json');
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('describes every endpoint in /api/openapi.json with request and response schemas', async () => {
    const document = (await get(ctx, '/api/openapi.json')).json();
    expect(document.openapi).toMatch(/^3\./);
    const expected: [string, string][] = [
      ['/api/user/login', 'post'],
      ['/api/user/register', 'post'],
      ['/api/user/authenticate', 'post'],
      ['/api/user/resend-otp', 'post'],
      ['/api/user/refresh-token', 'post'],
      ['/api/user/logout', 'post'],
      ['/api/user/detail', 'get'],
      ['/api/admin/users', 'get'],
      ['/healthz', 'get'],
      ['/readyz', 'get'],
    ];
    for (const [path, method] of expected) {
      const operation = document.paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(operation.responses['200'].content['application/json'].schema, `${path} response`).toBeDefined();
      if (method === 'post' && path !== '/api/user/logout')
        expect(operation.requestBody.content['application/json'].schema, `${path} body`).toBeDefined();
    }
    expect(document.components.schemas.ErrorResponse).toBeDefined();
  });

  it('serves the API explorer at /api/docs', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('swagger');
  });
});

describe('rate limits', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp('embedded', { authRateLimit: 3 });
  });
  afterAll(() => ctx.close());

  it('refuse the fourth sign-in call in a minute with 429 in the error shape', async () => {
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 4; i++) {
      last = await ctx.app.inject({ method: 'POST', url: '/api/user/login', payload: { email_id: 'nobody@example.com' } });
      statuses.push(last.statusCode);
    }
    expect(statuses).toEqual([404, 404, 404, 429]);
    expect(last?.json()).toEqual({
      errorDetails: { error_code: 'RATE_LIMITED', error_message: MESSAGES.rateLimited, request_id: expect.any(String) },
    });
  });
});
