import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSUMPTION_EXPORT_COLUMNS, USAGE_EXPORT_MESSAGES } from '@kumo/contract';
import { HOUR, MINUTE } from '../../clock.js';
import { peopleAround } from '../../../test/support/account-people.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { get, logIn, startTestApp, type TestContext } from '../../../test/support/harness.js';
import { meteredOwner, rows } from '../../../test/support/metering.js';

const kinds = await databaseKinds();

describe.each(kinds)('the consumption export on %s', (kind) => {
  let ctx: TestContext;
  let owner: Awaited<ReturnType<typeof meteredOwner>>;
  let people: Awaited<ReturnType<typeof peopleAround>>;
  const path = (query: string) => `/api/subscription/consumption/export/${owner.subscriptionId}?${query}`;

  beforeAll(async () => {
    // Real hours: a billable hour lasts 60 minutes of the test clock.
    ctx = await startTestApp(kind, { cloud: { simTimeScale: 1 } });
    ctx.clock.set('2026-06-30T21:30:00Z');
    owner = await meteredOwner(ctx, `export.owner.${kind}@example.com`, { backup: true });
    // Runs across midnight and the month's end, each debiting the hours begun since the last.
    for (let i = 0; i < 5; i++) {
      ctx.clock.advance(HOUR + 5 * MINUTE);
      await ctx.services.metering.run();
    }
    owner.tokens = await logIn(ctx, `export.owner.${kind}@example.com`);
    people = await peopleAround(ctx, { tokens: owner.tokens, ...owner.customer }, `export.${kind}`);
  });
  afterAll(() => ctx.close());

  /** The usage of the hours that began in [from, to): what the cost screens show for the range. */
  async function usedCents(from: string, to: string) {
    const [row] = await rows<{ cents: string }>(
      ctx,
      sql`select coalesce(sum(amount_cents), 0)::text as cents from metering_charges
          where subscription_id = ${owner.subscriptionId} and hour_start >= ${from}::timestamptz and hour_start < ${to}::timestamptz`,
    );
    return Number(row!.cents);
  }

  it('answers JSON rows per period of use, cluster and dimension that add up to the usage of those hours', async () => {
    const response = await get(ctx, path('from=2026-06-30&to=2026-07-01&granularity=HOUR&format=json'), owner.tokens.jwt);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('application/json');
    expect(response.headers['content-disposition']).toContain('consumption-2026-06-30-2026-07-01-hour.json');
    const body = response.json();
    expect(body).toMatchObject({ subscription_id: owner.subscriptionId, from: '2026-06-30', to: '2026-07-01', granularity: 'HOUR' });
    const cents = body.rows.reduce((sum: number, row: { amount: number }) => sum + Math.round(row.amount * 100), 0);
    expect(cents).toBe(await usedCents('2026-06-30T00:00:00Z', '2026-07-02T00:00:00Z'));
    expect(cents).toBeGreaterThan(0);
    const first = body.rows[0];
    expect(Object.keys(first)).toEqual([...CONSUMPTION_EXPORT_COLUMNS]);
    expect(first).toMatchObject({ cluster_id: owner.clusterId, cluster_name: 'Alpha' });
    // Sign-up credits pay for everything here.
    expect(new Set(body.rows.map((row: { paid_from: string }) => row.paid_from))).toEqual(new Set(['FREE_CREDITS']));
    const periods = new Set(body.rows.map((row: { period_start: string }) => row.period_start));
    // One period per hour used (21:30 to 02:30), though five runs debited them.
    expect(periods.size).toBe(6);

    const july = (await get(ctx, path('from=2026-07-01&to=2026-07-01&granularity=DAY&format=json'), owner.tokens.jwt)).json();
    expect(new Set(july.rows.map((row: { period_start: string }) => row.period_start))).toEqual(new Set(['2026-07-01T00:00:00.000Z']));
    const julyCents = july.rows.reduce((sum: number, row: { amount: number }) => sum + Math.round(row.amount * 100), 0);
    expect(julyCents).toBe(await usedCents('2026-07-01T00:00:00Z', '2026-07-02T00:00:00Z'));
    expect(julyCents).toBeLessThan(cents);
  });

  it('answers CSV by default with a header, monthly rows, and keeps the cost table of startDate', async () => {
    const csv = await get(ctx, path('from=2026-06-01&to=2026-07-31&granularity=MONTH'), owner.tokens.jwt);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe(CONSUMPTION_EXPORT_COLUMNS.join(','));
    const amountAt = CONSUMPTION_EXPORT_COLUMNS.indexOf('amount');
    const cents = lines.slice(1).reduce((sum, line) => sum + Math.round(Number(line.split(',')[amountAt]) * 100), 0);
    expect(cents).toBe(await usedCents('2026-06-01T00:00:00Z', '2026-08-01T00:00:00Z'));
    expect(lines.slice(1).every((line) => /^2026-0[67]-01T00:00:00.000Z,/.test(line))).toBe(true);

    const table = await get(ctx, path('startDate=2026-07-01T00:00:00&table=cost'), owner.tokens.jwt);
    expect(table.statusCode).toBe(200);
    expect(table.body.split('\r\n')[0]).toBe('Date,Compute services (USD),Storage services (USD),Total cost (USD)');
  });

  it('refuses bad dates, half ranges, reversed ranges and more than 13 months with field errors', async () => {
    const cases: [string, string, string][] = [
      ['from=2026-02-30&to=2026-03-01', 'from', USAGE_EXPORT_MESSAGES.dayFormat],
      ['from=2026-1-01&to=2026-03-01', 'from', USAGE_EXPORT_MESSAGES.dayFormat],
      // Shaped like days but not on the calendar: each is refused before the export starts to stream.
      ['from=2024-13-45&to=2024-12-01', 'from', USAGE_EXPORT_MESSAGES.dayFormat],
      ['from=2024-00-10&to=2024-12-01', 'from', USAGE_EXPORT_MESSAGES.dayFormat],
      ['from=9999-99-99&to=2024-12-01', 'from', USAGE_EXPORT_MESSAGES.dayFormat],
      ['from=2024-12-01&to=2024-13-45', 'to', USAGE_EXPORT_MESSAGES.dayFormat],
      ['from=2024-12-01&to=2024-00-10', 'to', USAGE_EXPORT_MESSAGES.dayFormat],
      ['from=2024-12-01&to=9999-99-99', 'to', USAGE_EXPORT_MESSAGES.dayFormat],
      // Calendar days outside the years an export covers: refused, not a body cut off mid-stream.
      ['from=0001-01-01&to=0001-12-31', 'from', USAGE_EXPORT_MESSAGES.yearRange],
      ['from=1999-12-01&to=2000-01-31', 'from', USAGE_EXPORT_MESSAGES.yearRange],
      ['from=2100-12-01&to=2101-01-31', 'to', USAGE_EXPORT_MESSAGES.yearRange],
      ['from=9999-01-01&to=9999-12-31', 'from', USAGE_EXPORT_MESSAGES.yearRange],
      ['from=2026-03-01', 'to', USAGE_EXPORT_MESSAGES.rangeIncomplete],
      ['from=2026-03-02&to=2026-03-01', 'to', USAGE_EXPORT_MESSAGES.rangeReversed],
      ['from=2025-06-01&to=2026-07-01', 'to', USAGE_EXPORT_MESSAGES.rangeTooLong],
      ['from=2025-06-01&to=2026-06-30&granularity=WEEK', 'granularity', ''],
      ['from=2025-06-01&to=2026-06-30&format=xml', 'format', ''],
    ];
    for (const [query, field, message] of cases) {
      const response = await get(ctx, path(query), owner.tokens.jwt);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().errorDetails.error_code, query).toBe('VALIDATION_FAILED');
      const errors = response.json().field_errors as Record<string, string>;
      expect(Object.keys(errors), query).toContain(field);
      if (message) expect(errors[field], query).toBe(message);
    }
    // Exactly 13 months is allowed.
    expect((await get(ctx, path('from=2025-06-01&to=2026-06-30'), owner.tokens.jwt)).statusCode).toBe(200);
  });

  it("refuses a month table's startDate outside the years 2000 to 2100 with the export's message", async () => {
    const tables = [
      path('table=cost&'),
      `/api/subscription/consumption/overview?`,
      `/api/subscription/consumption/credit-analysis/${owner.subscriptionId}?`,
      `/api/cluster/consumption/overview/${owner.clusterId}?`,
      `/api/cluster/consumption/export/${owner.clusterId}?`,
    ];
    for (const table of tables) {
      for (const month of ['0001-01-01T00:00:00', '1999-12-01T00:00:00', '2101-01-01', '9999-12-01T00:00:00']) {
        const refused = await get(ctx, `${table}startDate=${month}`, owner.tokens.jwt);
        expect([refused.statusCode, refused.json().errorDetails?.error_code], `${table} ${month}`).toEqual([400, 'VALIDATION_FAILED']);
        expect(refused.json().field_errors, `${table} ${month}`).toEqual({ startDate: USAGE_EXPORT_MESSAGES.yearRange });
      }
      for (const month of ['2000-01-01T00:00:00', '2100-12-01T00:00:00'])
        expect((await get(ctx, `${table}startDate=${month}`, owner.tokens.jwt)).statusCode, `${table} ${month}`).toBe(200);
    }
  });

  it('is for owners, admins and a staff view; a cluster member is refused and another account finds nothing', async () => {
    const query = 'from=2026-06-30&to=2026-07-01&format=json';
    expect((await get(ctx, path(query), people.admin.jwt)).statusCode).toBe(200);
    const viewed = await get(ctx, path(query), people.staffView.jwt);
    expect(viewed.statusCode).toBe(200);
    expect(viewed.json().rows.length).toBeGreaterThan(0);
    expect((await get(ctx, path(query), people.member.jwt)).statusCode).toBe(403);
    expect((await get(ctx, path(query), people.stranger.jwt)).statusCode).toBe(404);
    expect((await get(ctx, path(query))).statusCode).toBe(401);
  });
});
