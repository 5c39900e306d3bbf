import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../../test/support/harness.js';

// Probes are asked many times a second by a load balancer: they skip the browser security headers
// (and the request log) that every other answer carries.
describe('health probes', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp('embedded');
  });
  afterAll(() => ctx.close());

  it('answer without the per-request security headers meant for browsers', async () => {
    for (const url of ['/healthz', '/readyz']) {
      const probe = await ctx.app.inject({ url });
      expect(probe.statusCode).toBe(200);
      expect(probe.headers['content-security-policy']).toBeUndefined();
    }
  });

  it('leave those headers on every other answer', async () => {
    const api = await ctx.app.inject({ url: '/api/user/detail' });
    expect(api.headers['content-security-policy']).toContain("default-src 'self'");
    expect(api.headers['strict-transport-security']).toBeDefined();
  });
});
