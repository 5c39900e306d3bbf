import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { createStaffIdentity } from '../../src/adapters/identity/staff-identity.js';
import { buildApp } from '../../src/app.js';
import { createRateLimitStore } from '../../src/http/rate-limit-store.js';
import type { DatabaseHandle } from '../../src/db/client.js';
import { seedDemoPeople } from '../../src/demo/seed.js';
import { SSO_PATHS } from '../../src/modules/staff-sso/sso-transaction.js';
import { createServices, type Services } from '../../src/services.js';
import { openTestDatabase, type DatabaseKind } from './databases.js';
import { RecordingQueue, RecordingTransport, TEST_SECRET } from './harness.js';
import { ManualClock } from './manual-clock.js';

export interface SsoTestContext {
  app: FastifyInstance;
  baseUrl: string;
  services: Services;
  clock: ManualClock;
  /** Every log line the app wrote. */
  logs: string[];
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * The portal listening on a local port with the bundled development identity provider: discovery,
 * the token request and the browser's redirects are real HTTP, as in production. The demo staff
 * member and customer are seeded; a stand-in console build answers page routes.
 */
export async function startSsoApp(kind: DatabaseKind): Promise<SsoTestContext> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const database: DatabaseHandle = await openTestDatabase(kind);
  const clock = new ManualClock('2026-03-10T09:00:00Z');
  await seedDemoPeople(database.db, clock);
  const logs: string[] = [];
  const logger = pino(
    { level: 'info' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        logs.push(chunk.toString('utf8'));
        done();
      },
    }),
  );
  const identity = await createStaffIdentity({
    developmentProvider: true,
    publicUrl: baseUrl,
    redirectUri: `${baseUrl}${SSO_PATHS.callback}`,
    secret: TEST_SECRET,
    logger,
    hint: 'staff@kumo.cloud',
  });
  const services = createServices({
    db: database.db,
    clock,
    jobs: new RecordingQueue(),
    mailTransport: new RecordingTransport(),
    mailFrom: 'Kumo Cloud <no-reply@kumo.test>',
    authSecret: TEST_SECRET,
    publicUrl: baseUrl,
    logger,
    identity: identity.provider,
  });
  const consoleDir = mkdtempSync(join(tmpdir(), 'kumo-sso-console-'));
  writeFileSync(join(consoleDir, 'index.html'), '<!doctype html><title>Kumo Cloud</title><div id="root"></div>');
  const app = await buildApp({
    services,
    logger,
    ping: database.ping,
    authRateLimit: 10_000,
    rateLimitStore: createRateLimitStore(database.db, clock),
    devMailbox: false,
    consoleDir,
    staffSso: { secret: TEST_SECRET, publicUrl: baseUrl, devIdentityProvider: identity.development },
  });
  await app.listen({ port, host: '127.0.0.1' });
  return {
    app,
    baseUrl,
    services,
    clock,
    logs,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

interface StoredCookie {
  value: string;
  path: string;
}

/**
 * Just enough of a browser for redirect flows: a cookie jar (name, value, path; Max-Age=0 deletes)
 * and manual redirects, so each hop can be inspected.
 */
export class TestBrowser {
  readonly cookies = new Map<string, StoredCookie>();
  /** Every Set-Cookie header seen, for checking attributes. */
  readonly setCookieHeaders: string[] = [];

  constructor(private readonly baseUrl: string) {}

  cookieHeaderFor(url: URL): string {
    return [...this.cookies.entries()]
      .filter(([, cookie]) => url.pathname.startsWith(cookie.path))
      .map(([name, cookie]) => `${name}=${cookie.value}`)
      .join('; ');
  }

  async request(target: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
    const url = new URL(target, this.baseUrl);
    const headers = new Headers();
    const cookie = this.cookieHeaderFor(url);
    if (cookie) headers.set('cookie', cookie);
    let body: string | undefined;
    if (init.form) {
      // What a browser sends for a form on a page of this origin under Referrer-Policy: same-origin.
      headers.set('origin', url.origin);
      headers.set('sec-fetch-site', 'same-origin');
      headers.set('content-type', 'application/x-www-form-urlencoded');
      body = new URLSearchParams(init.form).toString();
    }
    const response = await fetch(url, { method: init.method ?? (init.form ? 'POST' : 'GET'), headers, body, redirect: 'manual' });
    for (const header of response.headers.getSetCookie()) this.store(header, url);
    return response;
  }

  private store(header: string, url: URL): void {
    this.setCookieHeaders.push(header);
    const [pair = '', ...attributes] = header.split(';').map((part) => part.trim());
    const separator = pair.indexOf('=');
    const name = pair.slice(0, separator);
    const value = pair.slice(separator + 1);
    const attribute = (key: string) =>
      attributes.find((item) => item.toLowerCase().startsWith(`${key}=`))?.slice(key.length + 1) ??
      (attributes.some((item) => item.toLowerCase() === key) ? '' : undefined);
    const expires = attribute('expires');
    const removed = attribute('max-age') === '0' || (expires !== undefined && new Date(expires).getTime() <= Date.now());
    if (removed || value === '') this.cookies.delete(name);
    else this.cookies.set(name, { value, path: attribute('path') ?? url.pathname });
  }

  /**
   * Follows redirects from `target` until a page answers (status 200 or an error) or the browser
   * lands on one of the console's pages, which a test reads instead of loading.
   */
  async follow(target: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Landing> {
    let response = await this.request(target, init);
    const hops: string[] = [new URL(target, this.baseUrl).href];
    for (let hop = 0; hop < 15; hop += 1) {
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) break;
      const next = new URL(location, hops.at(-1));
      hops.push(next.href);
      if (next.pathname === SSO_PATHS.handOff || next.pathname === SSO_PATHS.error) return { url: next, response, hops };
      response = await this.request(next.href);
    }
    return { url: new URL(hops.at(-1)!), response, hops };
  }
}

export interface Landing {
  /** Where the browser ended up. */
  url: URL;
  /** The last response (for a console page: the redirect that pointed there). */
  response: Response;
  hops: string[];
}

/** The tokens in /oauth2/redirect's token parameter. */
export function decodeHandOff(url: URL): { jwt_token: string; refresh_token: string } {
  const token = url.searchParams.get('token') ?? '';
  return (JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { data: { jwt_token: string; refresh_token: string } }).data;
}
