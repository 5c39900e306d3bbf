import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSUMPTION_EXPORT_COLUMNS } from '@kumo/contract';
import { HOUR, MINUTE } from '../../clock.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { get, logIn, send, startTestApp, type TestContext } from '../../../test/support/harness.js';
import { meteredOwner, rows } from '../../../test/support/metering.js';
import { insertStaff } from '../../../test/support/staff.js';

/**
 * One figure for a month's usage: the usage of the hours that began in it (docs/metering.md), on every screen and in
 * every export and statement, also when a month's last hours are debited in the run after midnight.
 */
const kinds = await databaseKinds();
const cents = (dollars: number) => Math.round(dollars * 100);

describe.each(kinds)("a month's usage on %s", (kind) => {
  let ctx: TestContext;
  let owner: Awaited<ReturnType<typeof meteredOwner>>;
  const email = `month.usage.${kind}@example.com`;
  const staffEmail = `month.usage.staff.${kind}@kumo.test`;
  let jwt: string;
  let staffJwt: string;

  beforeAll(async () => {
    // Real hours: a billable hour lasts 60 minutes of the test clock.
    ctx = await startTestApp(kind, { cloud: { simTimeScale: 1 } });
    ctx.clock.set('2026-10-31T12:30:00Z');
    owner = await meteredOwner(ctx, email, { backup: true });
    await insertStaff(ctx, staffEmail, 'Sue Support', 'SYSTEM_SUPPORT');
    for (let i = 0; i < 8; i++) {
      ctx.clock.advance(HOUR + 5 * MINUTE);
      await ctx.services.metering.run();
    }
    // No run from 21:10 to midnight: October's hours of 21:30, 22:30 and 23:30 are debited in November.
    ctx.clock.set('2026-11-01T00:40:00Z');
    await ctx.services.metering.run();
    for (let i = 0; i < 3; i++) {
      ctx.clock.advance(HOUR + 5 * MINUTE);
      await ctx.services.metering.run();
    }
    jwt = (await logIn(ctx, email)).jwt;
    staffJwt = (await logIn(ctx, staffEmail)).jwt;
    expect((await send(ctx, 'PUT', `/api/subscription/${owner.subscriptionId}/budget`, { monthly_amount: '5000' }, jwt)).statusCode).toBe(
      200,
    );
  });
  afterAll(() => ctx.close());

  /** The ground truth: the charges of the hours that began in [from, to). */
  async function chargedCents(from: string, to: string) {
    const [row] = await rows<{ cents: string }>(
      ctx,
      sql`select coalesce(sum(amount_cents), 0)::text as cents from metering_charges
          where subscription_id = ${owner.subscriptionId} and hour_start >= ${from}::timestamptz and hour_start < ${to}::timestamptz`,
    );
    return Number(row!.cents);
  }
  async function debitedCents(from: string, to: string) {
    const [row] = await rows<{ cents: string }>(
      ctx,
      sql`select coalesce(-sum(amount_cents), 0)::text as cents from ledger_entries
          where subscription_id = ${owner.subscriptionId} and kind = 'USAGE' and created_at >= ${from}::timestamptz and created_at < ${to}::timestamptz`,
    );
    return Number(row!.cents);
  }
  const read = async (url: string, token = jwt) => {
    const response = await get(ctx, url, token);
    expect(response.statusCode, url).toBe(200);
    return response;
  };
  const exportPath = (from: string, to: string, format: string) =>
    `/api/subscription/consumption/export/${owner.subscriptionId}?from=${from}&to=${to}&granularity=DAY&format=${format}`;

  /** Every figure of the month that a customer or staff can read, in cents, by where it is shown. */
  async function figures(month: '2026-10' | '2026-11') {
    const [from, to] = month === '2026-10' ? ['2026-10-01', '2026-10-31'] : ['2026-11-01', '2026-11-30'];
    const startDate = `${month}-01T00:00:00`;
    const analysis = (await read(`/api/subscription/consumption/credit-analysis/${owner.subscriptionId}?startDate=${startDate}`)).json();
    const novemberAnalysis = (await read(`/api/subscription/consumption/credit-analysis/${owner.subscriptionId}`)).json();
    const overview = (await read(`/api/subscription/consumption/overview?startDate=${startDate}`)).json();
    const cluster = (await read(`/api/cluster/consumption/overview/${owner.clusterId}?startDate=${startDate}`)).json();
    const statement = (await read(`/api/subscription/statement/${owner.subscriptionId}?month=${month}`)).json();
    const json = (await read(exportPath(from, to, 'json'))).json();
    const csv = (await read(exportPath(from, to, 'csv'))).body.trim().split('\r\n').slice(1);
    const amountAt = CONSUMPTION_EXPORT_COLUMNS.indexOf('amount');
    const cumulative = (await read(`/api/admin/view/cumulative-cost-consumption?userId=${owner.customer.userId}`, staffJwt)).json();
    const ofMonth = (list: { date: string; monthly_consumed_amount: number }[]) =>
      cents(list.find((m) => m.date.startsWith(month))!.monthly_consumed_amount);
    return {
      'cost analysis': cents(analysis.total),
      'cost analysis by day': analysis.daily.reduce((sum: number, d: { daily_total: number }) => sum + cents(d.daily_total), 0),
      'cost overview': cents(overview[0].consumed_amount),
      "cluster's overview": cents(cluster.consumed_amount),
      '12-month view': ofMonth(novemberAnalysis.last_12_months),
      "staff's 12-month view": ofMonth(cumulative),
      'statement usage line': cents(statement.usage.total),
      'usage export (JSON)': json.rows.reduce((sum: number, r: { amount: number }) => sum + cents(r.amount), 0),
      'usage export (CSV)': csv.reduce((sum, line) => sum + cents(Number(line.split(',')[amountAt])), 0),
    };
  }

  it("counts November's usage by the hour of use everywhere it is shown or exported", async () => {
    const november = await chargedCents('2026-11-01T00:00:00Z', '2026-12-01T00:00:00Z');
    // The case that tells the definitions apart: November's debits hold October's last hours.
    expect(await debitedCents('2026-11-01T00:00:00Z', '2026-12-01T00:00:00Z')).toBeGreaterThan(november);
    expect(november).toBeGreaterThan(0);
    const shown: Record<string, number> = await figures('2026-11');
    const list = (await read('/api/subscription/list')).json();
    shown['subscriptions list, used this month'] = cents(list[0].consumed_amount);
    const details = (await read(`/api/subscription/details?subscription_id=${owner.subscriptionId}`)).json();
    shown['subscription details, used this month'] = cents(details.consumed_amount);
    shown["budget's month to date"] = cents((await read(`/api/subscription/${owner.subscriptionId}/budget`)).json().month_to_date);
    const staffCost = (await read(`/api/admin/cost-analysis/${owner.customer.userId}?page=0&size=20`, staffJwt)).json();
    shown["staff's cost this month"] = cents(staffCost.consumed_amount);
    shown["staff's cost this month, per subscription"] = cents(staffCost.content[0].consumed_amount);
    expect(shown).toEqual(Object.fromEntries(Object.keys(shown).map((where) => [where, november])));
  });

  it("counts October's usage by the hour of use, though its last hours were debited in November", async () => {
    const october = await chargedCents('2026-10-01T00:00:00Z', '2026-11-01T00:00:00Z');
    expect(await debitedCents('2026-10-01T00:00:00Z', '2026-11-01T00:00:00Z')).toBeLessThan(october);
    const shown = await figures('2026-10');
    expect(shown).toEqual(Object.fromEntries(Object.keys(shown).map((where) => [where, october])));
  });

  it("shows the debits of October's last hours apart on both statements, which still add up to the ledger's balances", async () => {
    const statementOf = async (month: string) => (await read(`/api/subscription/statement/${owner.subscriptionId}?month=${month}`)).json();
    const [october, november] = [await statementOf('2026-10'), await statementOf('2026-11')];
    const lateOctober =
      (await chargedCents('2026-10-01T00:00:00Z', '2026-11-01T00:00:00Z')) -
      (await debitedCents('2026-10-01T00:00:00Z', '2026-11-01T00:00:00Z'));
    expect(lateOctober).toBeGreaterThan(0);
    expect(cents(october.usage.posted_later)).toBe(lateOctober);
    expect(october.usage.earlier_months).toEqual([]);
    expect(november.usage.earlier_months.map((u: { month: string; amount: number }) => [u.month, cents(u.amount)])).toEqual([
      ['2026-10', lateOctober],
    ]);
    expect(cents(november.usage.posted_later)).toBe(0);
    for (const statement of [october, november]) {
      const movements =
        cents(statement.movements) -
        (-cents(statement.usage.total) -
          statement.usage.earlier_months.reduce((sum: number, u: { amount: number }) => sum + cents(u.amount), 0) +
          cents(statement.usage.posted_later));
      // Nothing but usage moved these balances (the sign-up credits came in October).
      expect(movements).toBe(statement.month === '2026-10' ? 50_000 : 0);
      expect(cents(statement.opening_balance) + cents(statement.movements)).toBe(cents(statement.closing_balance));
    }
    expect(november.opening_balance).toBe(october.closing_balance);
    const balance = (await read(`/api/subscription/details?subscription_id=${owner.subscriptionId}`)).json().balance;
    expect(november.closing_balance).toBe(balance);
  });
});
