import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../../test/support/databases.js';
import { authHeaders, signUp, startTestApp, type TestContext } from '../../test/support/harness.js';
import { TEST_CARDS, createSubscription, openCheckout, payWith, paymentStatus } from '../../test/support/checkout.js';
import { COMPRESSION_THRESHOLD_BYTES } from './compression.js';

const kinds = await databaseKinds();

const decoders: Record<string, (body: Buffer) => Buffer> = { br: brotliDecompressSync, gzip: gunzipSync };

// API answers above a kibibyte travel compressed, in the encoding the client asked for; small ones and PDFs as they are.
describe.each(kinds)('compressed API answers (%s)', (kind) => {
  let ctx: TestContext;
  let jwt: string;
  beforeAll(async () => {
    ctx = await startTestApp(kind);
    ({ jwt } = await signUp(ctx, `compress.${Date.now()}@example.com`));
  });
  afterAll(() => ctx.close());

  const fetchWith = (url: string, acceptEncoding?: string) =>
    ctx.app.inject({ url, headers: { ...authHeaders(jwt), ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) } });

  it('compresses JSON above the threshold with Brotli or gzip, as Accept-Encoding asks', async () => {
    const plain = await fetchWith('/api/openapi.json');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESSION_THRESHOLD_BYTES);
    for (const [acceptEncoding, expected] of [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0.5, gzip;q=1', 'gzip'],
    ] as const) {
      const answer = await fetchWith('/api/openapi.json', acceptEncoding);
      expect(answer.statusCode, acceptEncoding).toBe(200);
      expect(answer.headers['content-encoding'], acceptEncoding).toBe(expected);
      expect(answer.headers.vary, acceptEncoding).toContain('accept-encoding');
      expect(answer.headers['content-type'], acceptEncoding).toMatch(/^application\/json/);
      expect(answer.rawPayload.length, acceptEncoding).toBeLessThan(plain.rawPayload.length / 4);
      expect(decoders[expected]!(answer.rawPayload).toString(), acceptEncoding).toBe(plain.body);
    }
  });

  it('keeps no-store on a compressed personal answer', async () => {
    const subscriptionId = await createSubscription(ctx, jwt, 'Compressed');
    const url = `/api/subscription/consumption/credit-analysis/${subscriptionId}`;
    const plain = await fetchWith(url);
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESSION_THRESHOLD_BYTES);
    const answer = await fetchWith(url, 'br');
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(brotliDecompressSync(answer.rawPayload).toString())).toEqual(plain.json());
  });

  it('sends answers under the threshold, and to clients that ask for no encoding, as they are', async () => {
    const small = await fetchWith('/api/user/detail', 'br, gzip');
    expect(small.statusCode).toBe(200);
    expect(small.rawPayload.length).toBeLessThan(COMPRESSION_THRESHOLD_BYTES);
    expect(small.headers['content-encoding']).toBeUndefined();
    const identity = await fetchWith('/api/openapi.json', 'identity');
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.json()).toHaveProperty('openapi');
  });

  it('does not compress a PDF receipt, and keeps its download headers', async () => {
    const subscriptionId = await createSubscription(ctx, jwt, 'Receipts');
    const checkout = await openCheckout(ctx, jwt, subscriptionId, 25);
    expect((await payWith(ctx, checkout.path, TEST_CARDS.success)).statusCode).toBe(303);
    const confirmed = (await paymentStatus(ctx, jwt, subscriptionId, checkout.sessionId)).json<{ transaction_id: string }>();
    const receipt = await fetchWith(`/api/credit/subscription/${confirmed.transaction_id}`, 'br, gzip');
    expect(receipt.statusCode).toBe(200);
    expect(receipt.headers['content-type']).toBe('application/pdf');
    expect(receipt.headers['content-encoding']).toBeUndefined();
    expect(receipt.headers['content-disposition']).toBe(`attachment; filename="${confirmed.transaction_id}.pdf"`);
    expect(receipt.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('leaves the probes alone', async () => {
    const health = await ctx.app.inject({ url: '/healthz', headers: { 'accept-encoding': 'br, gzip' } });
    expect(health.statusCode).toBe(200);
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(health.headers.vary).toBeUndefined();
  });
});
