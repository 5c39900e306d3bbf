// Writes the OpenAPI document to docs/openapi.json, or with --check fails when the committed one is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { createDevMailboxTransport } from '../adapters/mail/mail-transport.js';
import { buildApp } from '../app.js';
import { systemClock } from '../clock.js';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from '../db/schema.js';
import { createServices } from '../services.js';
import { createRateLimitStore } from '../http/rate-limit-store.js';

const target = fileURLToPath(new URL('../../../../docs/openapi.json', import.meta.url));
const publicUrl = 'http://localhost:8080';
const secret = 'openapi-document-generation-only-secret';
const logger = pino({ level: 'silent' });

// Routes are only described here, never called: the pool never connects and jobs have nowhere to go.
const pool = new pg.Pool({ connectionString: 'postgres://openapi@127.0.0.1:1/none' });
const db = drizzle({ client: pool, schema });
const services = createServices({
  db,
  clock: systemClock,
  jobs: { send: async () => undefined },
  mailTransport: createDevMailboxTransport(logger, publicUrl),
  mailFrom: 'Kumo Cloud <no-reply@kumo.cloud>',
  authSecret: secret,
  publicUrl,
  logger,
});
const app = await buildApp({
  services,
  logger,
  ping: async () => undefined,
  authRateLimit: 20,
  rateLimitStore: createRateLimitStore(db, systemClock),
  devMailbox: true,
  staffSso: { secret, publicUrl },
});
await app.ready();
const document = `${JSON.stringify(app.swagger(), null, 2)}\n`;
await app.close();
await pool.end();

if (process.argv.includes('--check')) {
  const committed = readFileSync(target, 'utf8');
  if (committed !== document) {
    console.error('docs/openapi.json is out of date: run `npm run openapi` and commit it.');
    process.exit(1);
  }
  console.log('docs/openapi.json is up to date.');
} else {
  writeFileSync(target, document);
  console.log(`wrote ${target}`);
}
