import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../../test/support/databases.js';
import { startTestApp, type TestContext } from '../../test/support/harness.js';

const kinds = await databaseKinds();
const LIMIT = 20;

// The sign-in rate limit is counted in PostgreSQL: two portals on one database (nothing shared in memory) give one
// address LIMIT sign-ins a minute in all, not LIMIT each.
describe.each(kinds)('sign-in rate limits shared by two portals on %s', (kind) => {
  let first: TestContext;
  let second: TestContext;
  beforeAll(async () => {
    first = await startTestApp(kind, { authRateLimit: LIMIT });
    second = await startTestApp(kind, { authRateLimit: LIMIT, sameDatabaseAs: first });
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });

  const login = (ctx: TestContext, address: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/user/login',
      remoteAddress: address,
      payload: { email_id: 'nobody@example.com', auth_provider: 'EMAIL_OTP_AUTH' },
    });

  it('admits one address LIMIT times a minute across both portals, then again in the next minute', async () => {
    const address = '203.0.113.7';
    const answers = [];
    for (let round = 0; round < 25; round++) answers.push(await login(first, address), await login(second, address));
    const admitted = answers.filter((answer) => answer.statusCode !== 429);
    expect(admitted).toHaveLength(LIMIT);
    const refused = answers.find((answer) => answer.statusCode === 429)!;
    expect(refused.json().errorDetails.error_code).toBe('RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);

    // A burst at one instant is counted exactly too: each hit is one atomic upsert.
    const burst = await Promise.all(Array.from({ length: 15 }, () => [login(first, '203.0.113.6'), login(second, '203.0.113.6')]).flat());
    expect(burst.filter((answer) => answer.statusCode !== 429)).toHaveLength(LIMIT);

    // Another address has its own count; the route's count does not spill into another limited route.
    expect((await login(second, '203.0.113.8')).statusCode).not.toBe(429);
    const resend = await second.app.inject({
      method: 'POST',
      url: '/api/user/resend-otp',
      remoteAddress: address,
      payload: { email_id: 'nobody@example.com' },
    });
    expect(resend.statusCode).not.toBe(429);

    // The window is the injected clock's minute.
    first.clock.advance(61_000);
    second.clock.advance(61_000);
    expect((await login(second, address)).statusCode).not.toBe(429);
  });

  it('answers 503 in the error shape, not 500, when the counter cannot be reached', async () => {
    const broken = await startTestApp(kind, { authRateLimit: LIMIT, sameDatabaseAs: first });
    await broken.database.close();
    const answer = await login(broken, '203.0.113.9');
    expect(answer.statusCode).toBe(503);
    expect(answer.headers['retry-after']).toBe('5');
    expect(answer.json().errorDetails.error_code).toBe('SERVICE_UNAVAILABLE');
    await broken.app.close();
  });
});
