import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { pino } from 'pino';
import { startJobQueue } from '../jobs/boss.js';
import { isDatabaseUnavailable } from './unavailable.js';
import { openPostgres } from './client.js';
import { databaseKinds } from '../../test/support/databases.js';
import { errorCode, startTestApp, type TestContext } from '../../test/support/harness.js';
import { startTcpProxy } from '../../test/support/tcp-proxy.js';

const kinds = await databaseKinds();
const logger = pino({ level: 'silent' });

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const login = (ctx: TestContext) =>
  ctx.app.inject({ method: 'POST', url: '/api/user/login', payload: { email_id: 'nobody@example.com', auth_provider: 'EMAIL_OTP_AUTH' } });

// The database going away, for a moment or longer, never ends the process: requests are answered 503 in the error
// shape, /readyz says so, and everything works again once the database is back.
describe.each(kinds)('a database outage on %s', (kind) => {
  let ctx: TestContext;
  const escaped: unknown[] = [];
  const record = (error: unknown) => void escaped.push(error);
  beforeAll(async () => {
    ctx = await startTestApp(kind);
  });
  afterAll(() => ctx.close());
  beforeEach(() => {
    escaped.length = 0;
    process.on('uncaughtException', record);
    process.on('unhandledRejection', record);
  });
  afterEach(() => {
    process.off('uncaughtException', record);
    process.off('unhandledRejection', record);
  });

  it('survives its connections being terminated while a transaction waits between statements and requests are in flight', async () => {
    let resume!: () => void;
    const paused = new Promise<void>((resolve) => (resume = resolve));
    let inside = false;
    const transaction = ctx.database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      inside = true;
      await paused;
      await tx.execute(sql`select 2`);
    });
    await waitFor(() => inside);
    const inFlight = Array.from({ length: 10 }, () => login(ctx));
    const admin = new pg.Client({ connectionString: ctx.database.url });
    await admin.connect();
    await admin.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    await admin.end();
    // Let the server's notice of the terminated connection reach the idle-in-transaction client.
    await new Promise((resolve) => setTimeout(resolve, 300));
    resume();

    const failure = await transaction.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isDatabaseUnavailable(failure)).toBe(true);
    for (const answer of await Promise.all(inFlight)) expect([404, 503]).toContain(answer.statusCode);
    expect((await login(ctx)).statusCode).toBe(404);
    expect((await ctx.app.inject({ url: '/readyz' })).statusCode).toBe(200);
    expect(escaped).toEqual([]);
  });

  it('answers 503 with Retry-After while the database cannot be reached, /readyz too, and recovers', async () => {
    const proxy = await startTcpProxy(ctx.database.url);
    const cut = await startTestApp(kind, { sameDatabaseAs: ctx, databaseUrl: proxy.url });
    try {
      expect((await login(cut)).statusCode).toBe(404);
      await proxy.cut();

      const refused = await login(cut);
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['retry-after']).toBe('5');
      expect(errorCode(refused)).toBe('SERVICE_UNAVAILABLE');
      const register = await cut.app.inject({
        method: 'POST',
        url: '/api/user/register',
        payload: { email_id: 'new@example.com', user_name: 'Nina New', auth_provider: 'EMAIL_OTP_AUTH' },
      });
      expect(register.statusCode).toBe(503);
      const ready = await cut.app.inject({ url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.headers['retry-after']).toBe('5');
      expect(ready.json().status).toBe('database unreachable');
      expect((await cut.app.inject({ url: '/healthz' })).statusCode).toBe(200);

      await proxy.restore();
      expect((await login(cut)).statusCode).toBe(404);
      expect((await cut.app.inject({ url: '/readyz' })).statusCode).toBe(200);
      expect(escaped).toEqual([]);
    } finally {
      await cut.close();
      proxy.close();
    }
  });

  it('keeps its job workers alive when the database goes away in the middle of a job', async () => {
    const proxy = await startTcpProxy(ctx.database.url);
    const database = await openPostgres(proxy.url, kind);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const handled: string[] = [];
    const runner = await startJobQueue(
      database.jobsSql,
      [
        {
          queue: 'outage-probe',
          retryLimit: 0,
          retryDelaySeconds: 1,
          handler: async (data) => {
            handled.push(String(data.name));
            if (data.name === 'first') await gate;
          },
        },
      ],
      logger,
    );
    try {
      runner.startWorkers();
      await runner.queue.send('outage-probe', { name: 'first' });
      await waitFor(() => handled.includes('first'));
      await proxy.cut();
      release(); // the job ends while the database is away: settling it fails
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await proxy.restore();
      await runner.queue.send('outage-probe', { name: 'second' });
      await waitFor(() => handled.includes('second'), 40_000);
      expect(escaped).toEqual([]);
    } finally {
      await runner.stop();
      await database.close();
      proxy.close();
    }
  }, 60_000);
});
