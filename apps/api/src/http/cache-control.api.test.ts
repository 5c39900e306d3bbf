import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../../test/support/databases.js';
import { get, signUp, startTestApp, type TestContext } from '../../test/support/harness.js';

const kinds = await databaseKinds();

// An API answer may hold a person's data: no browser or proxy keeps it unless its route decides otherwise.
describe.each(kinds)('API caching (%s)', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp(kind);
  });
  afterAll(() => ctx.close());

  it('answers no-store by default, for data, errors and unknown paths alike', async () => {
    const { jwt } = await signUp(ctx, `cache.${Date.now()}@example.com`);
    const answers = [
      await get(ctx, '/api/user/detail', jwt),
      await get(ctx, '/api/subscription/list', jwt),
      await get(ctx, '/api/saas-common/help-document-links'),
      await get(ctx, '/api/user/detail'),
      await get(ctx, '/api/no-such-path'),
    ];
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 401, 404]);
    for (const answer of answers) expect(answer.headers['cache-control']).toBe('no-store');
  });

  it("keeps a route's own caching, and leaves pages outside /api/ alone", async () => {
    const asset = await ctx.app.inject({ url: '/api/docs/static/swagger-ui.css' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=0');
    const sandboxStyles = await ctx.app.inject({ url: '/sandbox/checkout.css' });
    expect(sandboxStyles.headers['cache-control']).toBe('public, max-age=3600');
  });
});
