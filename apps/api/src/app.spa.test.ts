import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { buildApp } from './app.js';
import { createRateLimitStore } from './http/rate-limit-store.js';
import { openTestDatabase } from '../test/support/databases.js';
import { RecordingQueue, RecordingTransport, TEST_SECRET } from '../test/support/harness.js';
import { ManualClock } from '../test/support/manual-clock.js';
import { createServices } from './services.js';
import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from './db/client.js';

const INDEX_HTML = '<!doctype html><title>Kumo Cloud</title><div id="root"></div>';
const USERS_HTML = '<!doctype html><title>Kumo Cloud</title><div id="root"><div id="first-screen">Users</div></div>';
const HOME_HTML = '<!doctype html><title>Kumo Cloud</title><div id="root"><div id="first-screen">Home</div></div>';
const HASHED_SCRIPT = 'assets/index-Dk_3-9xA.js';
const SCRIPT = `console.log(${JSON.stringify('the console '.repeat(200))});`;

/** A file and the Brotli and gzip copies the console's build leaves beside it. */
function writePrecompressed(path: string, text: string): void {
  writeFileSync(path, text);
  writeFileSync(`${path}.br`, brotliCompressSync(text));
  writeFileSync(`${path}.gz`, gzipSync(text));
}

describe('serving the console', () => {
  let app: FastifyInstance;
  let database: DatabaseHandle;
  beforeAll(async () => {
    const consoleDir = mkdtempSync(join(tmpdir(), 'kumo-console-'));
    writeFileSync(join(consoleDir, 'app.js'), 'console.log("app")');
    mkdirSync(join(consoleDir, 'assets'));
    writePrecompressed(join(consoleDir, 'index.html'), INDEX_HTML);
    writePrecompressed(join(consoleDir, HASHED_SCRIPT), SCRIPT);
    // The build draws some customer pages' first screens (here two of them).
    mkdirSync(join(consoleDir, 'first-screen'));
    writePrecompressed(join(consoleDir, 'first-screen', 'users.html'), USERS_HTML);
    writePrecompressed(join(consoleDir, 'first-screen', 'home.html'), HOME_HTML);
    database = await openTestDatabase('embedded');
    const logger = pino({ level: 'silent' });
    const services = createServices({
      db: database.db,
      clock: new ManualClock(),
      jobs: new RecordingQueue(),
      mailTransport: new RecordingTransport(),
      mailFrom: 'x <x@example.com>',
      authSecret: TEST_SECRET,
      publicUrl: 'http://portal.test',
      logger,
      payments: { allowSandbox: false },
    });
    const rateLimitStore = createRateLimitStore(database.db, new ManualClock());
    app = await buildApp({ services, logger, ping: database.ping, authRateLimit: 100, rateLimitStore, devMailbox: false, consoleDir });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('serves assets and falls back to index.html for page routes', async () => {
    expect((await app.inject({ url: '/app.js' })).body).toContain('console.log');
    for (const path of ['/', '/login', '/clusters/abc/def', '/no/such/page']) {
      const response = await app.inject({ url: path });
      expect(response.statusCode, path).toBe(200);
      expect(response.body, path).toContain('<div id="root">');
    }
  });

  it('sends the precompressed copy the browser accepts, with Vary, and hashed assets cached for a year', async () => {
    const decode = { br: brotliDecompressSync, gzip: gunzipSync };
    for (const [acceptEncoding, encoding] of [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip, deflate', 'gzip'],
      [undefined, undefined],
    ] as const) {
      const response = await app.inject({ url: `/${HASHED_SCRIPT}`, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });
      expect(response.statusCode, acceptEncoding).toBe(200);
      expect(response.headers['content-encoding'], acceptEncoding).toBe(encoding);
      expect(response.headers['content-type'], acceptEncoding).toMatch(/^(?:text|application)\/javascript/);
      expect(response.headers.vary, acceptEncoding).toBe('accept-encoding');
      expect(response.headers['cache-control'], acceptEncoding).toBe('public, max-age=31536000, immutable');
      expect(encoding ? decode[encoding](response.rawPayload).toString() : response.body, acceptEncoding).toBe(SCRIPT);
    }
  });

  it("answers a customer page's addresses with its HTML whose first screen the build drew, the others with index.html", async () => {
    for (const [path, html] of [
      ['/', HOME_HTML],
      ['/users', USERS_HTML],
      ['/users/3f1c', USERS_HTML],
      ['/users/3f1c?tab=x', USERS_HTML],
      ['/usersx', INDEX_HTML],
      ['/clusters', INDEX_HTML],
      ['/admin/customers', INDEX_HTML],
    ] as const) {
      const response = await app.inject({ url: path, headers: { 'accept-encoding': 'br' } });
      expect(response.statusCode, path).toBe(200);
      expect(response.headers['cache-control'], path).toBe('no-cache');
      expect(brotliDecompressSync(response.rawPayload).toString(), path).toBe(html);
    }
  });

  it('never lets a browser keep index.html or the SPA fallback without asking again', async () => {
    for (const path of ['/index.html', '/login', '/clusters/abc/def']) {
      const response = await app.inject({ url: path, headers: { 'accept-encoding': 'br, gzip' } });
      expect(response.statusCode, path).toBe(200);
      expect(response.headers['cache-control'], path).toBe('no-cache');
      expect(response.headers['content-encoding'], path).toBe('br');
      expect(response.headers.vary, path).toBe('accept-encoding');
      expect(brotliDecompressSync(response.rawPayload).toString(), path).toBe(INDEX_HTML);
    }
    // A file without a hash in its name is asked for again too.
    expect((await app.inject({ url: '/app.js' })).headers['cache-control']).toBe('no-cache');
  });

  it('keeps the error shape for unknown API paths and other methods', async () => {
    const api = await app.inject({ url: '/api/unknown' });
    expect(api.statusCode).toBe(404);
    expect(api.json().errorDetails.error_code).toBe('NOT_FOUND');
    expect((await app.inject({ method: 'POST', url: '/somewhere', payload: {} })).statusCode).toBe(404);
  });

  it('does not mount the dev mailbox when mail goes to an SMTP server', async () => {
    expect((await app.inject({ url: '/dev/mailbox.json' })).statusCode).toBe(404);
  });

  it('answers 404, not the console, for the sandbox checkout when it is off', async () => {
    for (const path of ['/sandbox/checkout.css', '/sandbox/checkout/cs_sandbox_1']) {
      const response = await app.inject({ url: path });
      expect(response.statusCode, path).toBe(404);
      expect(response.body, path).not.toContain('<div id="root">');
    }
  });
});
