import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@kumo/contract';
import { databaseKinds } from '../../test/support/databases.js';
import { errorCode, errorMessage, get, post, signUp, startTestApp, type TestContext } from '../../test/support/harness.js';
import { registerErrorHandler } from './error-handler.js';

const kinds = await databaseKinds();
const NUL = '\u0000';

const expectErrorShape = (body: unknown) =>
  expect(body).toMatchObject({ errorDetails: { error_code: expect.any(String), error_message: expect.any(String) } });

describe.each(kinds)('free text and database input errors on %s', (kind) => {
  let ctx: TestContext;
  let jwt: string;
  let subscriptionId: string;
  beforeAll(async () => {
    ctx = await startTestApp(kind);
    jwt = (await signUp(ctx, `text.${kind}@example.com`)).jwt;
    const created = await post(ctx, '/api/subscription/create', { subscription_name: 'Main', remark: 'line one\nline two' }, jwt);
    expect(created.statusCode).toBe(200);
    subscriptionId = created.json().subscription_id;
  });
  afterAll(() => ctx.close());

  it('refuses a NUL in a remark, an event_name or a session_id with a 400 that says why', async () => {
    const remark = await post(ctx, '/api/subscription/create', { subscription_name: 'Other', remark: `bad${NUL}remark` }, jwt);
    const event = await post(ctx, '/api/credit/purchase', { amount: 10, subscription_id: subscriptionId, event_name: `ADD${NUL}` }, jwt);
    const purchaseRemark = await post(
      ctx,
      '/api/credit/purchase',
      { amount: 10, subscription_id: subscriptionId, remark: `x\u001b[2J` },
      jwt,
    );
    const session = await get(ctx, `/api/credit/payment-status/${subscriptionId}?session_id=cs_${encodeURIComponent(NUL)}x`, jwt);
    for (const response of [remark, event, purchaseRemark, session]) {
      expect(response.statusCode).toBe(400);
      expectErrorShape(response.json());
      expect(errorCode(response)).toBe('VALIDATION_FAILED');
      expect(errorMessage(response)).toBe(MESSAGES.controlCharacters);
    }
  });

  it('refuses control characters in the sign-in name and tokens too', async () => {
    const authenticate = await post(ctx, '/api/user/authenticate', { email_id: 'a@example.com', otp: '123456', user_name: `A${NUL}` });
    const refresh = await post(ctx, '/api/user/refresh-token', { refresh_token: `r${NUL}` });
    for (const response of [authenticate, refresh]) {
      expect(response.statusCode).toBe(400);
      expect(errorMessage(response)).toBe(MESSAGES.controlCharacters);
    }
  });

  it('answers a value the database refuses (class 22) with 400 in the contract shape, never 500', async () => {
    const app = Fastify();
    registerErrorHandler(app);
    app.get('/nul', async () => ctx.database.db.execute(sql`select ${`a${NUL}b`}::text as value`));
    app.get('/uuid', async () => ctx.database.db.execute(sql`select ${'not-a-uuid'}::uuid as value`));
    app.get('/range', async () => ctx.database.db.execute(sql`select ${'99999999999'}::int as value`));
    app.get('/bug', async () => ctx.database.db.execute(sql`select * from no_such_table`));
    for (const path of ['/nul', '/uuid', '/range']) {
      const response = await app.inject({ url: path });
      expect(response.statusCode, path).toBe(400);
      expectErrorShape(response.json());
      expect(errorMessage(response)).toBe(MESSAGES.invalidInputValue);
    }
    // A programming error is still a 500: only the caller's values are the caller's fault.
    expect((await app.inject({ url: '/bug' })).statusCode).toBe(500);
    await app.close();
  });
});

describe("Fastify's own answers", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp(kinds[0]!);
  });
  afterAll(() => ctx.close());

  it('answers an over-long path parameter with 414 and a bad URL with 400, in the contract shape', async () => {
    const long = await ctx.app.inject({ url: `/api/credit/subscription/${'a'.repeat(300)}` });
    expect(long.statusCode).toBe(414);
    expectErrorShape(long.json());
    expect(errorCode(long)).toBe('URI_TOO_LONG');
    const bad = await ctx.app.inject({ url: '/api/credit/subscription/%E0%A4%A' });
    expect(bad.statusCode).toBe(400);
    expectErrorShape(bad.json());
  });

  it('answers headers that are too large with 431 in the contract shape', async () => {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as AddressInfo;
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest(
        { host: '127.0.0.1', port, path: '/healthz', headers: { cookie: `c=${'x'.repeat(40_000)}` } },
        (response) => {
          let body = '';
          response.on('data', (chunk) => (body += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        },
      );
      request.on('error', reject);
      request.end();
    });
    expect(answer.status).toBe(431);
    expect(JSON.parse(answer.body)).toEqual({ errorDetails: { error_code: 'HEADERS_TOO_LARGE', error_message: MESSAGES.headersTooLarge } });
  });
});
