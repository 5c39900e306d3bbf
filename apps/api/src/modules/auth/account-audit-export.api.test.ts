import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_AUDIT_EXPORT_COLUMNS, USAGE_EXPORT_MESSAGES } from '@kumo/contract';
import { peopleAround } from '../../../test/support/account-people.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { get, send, startTestApp, type TestContext } from '../../../test/support/harness.js';
import { clusterEvent, meteredOwner } from '../../../test/support/metering.js';

const kinds = await databaseKinds();

describe.each(kinds)("the account's audit export on %s", (kind) => {
  let ctx: TestContext;
  let owner: Awaited<ReturnType<typeof meteredOwner>>;
  let people: Awaited<ReturnType<typeof peopleAround>>;
  const path = (query: string) => `/api/account/audit-logs/export?${query}`;

  beforeAll(async () => {
    ctx = await startTestApp(kind);
    ctx.clock.set('2026-09-10T10:00:00Z');
    owner = await meteredOwner(ctx, `audit.owner.${kind}@example.com`);
    await clusterEvent(ctx, owner.clusterId, 'CLUSTER_STOPPED', 'OFFLINE');
    // A staff view of the console: its start is in the account's trail.
    people = await peopleAround(ctx, { tokens: owner.tokens, ...owner.customer }, `audit.${kind}`);
    await send(ctx, 'POST', '/api/user/switch-user/end', undefined, people.staffView.jwt);
  });
  afterAll(() => ctx.close());

  it("holds the month's cluster and staff actions, newest first, as CSV and JSON", async () => {
    const json = await get(ctx, path('startDate=2026-09-01&format=json'), owner.tokens.jwt);
    expect(json.statusCode).toBe(200);
    expect(json.headers['content-type']).toContain('application/json');
    const entries = json.json().entries as { date: string; source: string; cluster_name: string | null; event: string }[];
    expect(entries.filter((e) => e.source === 'CLUSTER').map((e) => e.event)).toEqual([
      'CLUSTER_STOPPED',
      'CLUSTER_DEPLOYED',
      'CLUSTER_RESOURCES_CREATED',
    ]);
    expect(entries.find((e) => e.source === 'CLUSTER')!.cluster_name).toBe('Alpha');
    expect(entries.some((e) => e.source === 'ACCOUNT')).toBe(true);
    expect([...entries].sort((a, b) => b.date.localeCompare(a.date))).toEqual(entries);

    const csv = await get(ctx, path('startDate=2026-09-01'), owner.tokens.jwt);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe(ACCOUNT_AUDIT_EXPORT_COLUMNS.join(','));
    expect(lines).toHaveLength(entries.length + 1);

    const august = (await get(ctx, path('startDate=2026-08-01&format=json'), owner.tokens.jwt)).json();
    expect(august.entries).toEqual([]);
  });

  it('refuses a day that is not a first of a month and an unknown format', async () => {
    expect((await get(ctx, path('startDate=2026-09-02'), owner.tokens.jwt)).statusCode).toBe(400);
    expect((await get(ctx, path('format=xml'), owner.tokens.jwt)).statusCode).toBe(400);
  });

  it('refuses a month outside the years 2000 to 2100 as the usage export does, and so does the audit log page', async () => {
    for (const month of ['0001-01-01', '1999-12-01', '2101-01-01', '9999-12-01T00:00:00']) {
      const page = await get(ctx, `/api/account/audit-logs?startDate=${month}`, owner.tokens.jwt);
      expect([page.statusCode, page.json().field_errors], month).toEqual([400, { startDate: USAGE_EXPORT_MESSAGES.yearRange }]);
      const refused = await get(ctx, path(`startDate=${month}`), owner.tokens.jwt);
      expect([refused.statusCode, refused.json().errorDetails?.error_code], month).toEqual([400, 'VALIDATION_FAILED']);
      expect(refused.json().field_errors, month).toEqual({ startDate: USAGE_EXPORT_MESSAGES.yearRange });
    }
    for (const month of ['2000-01-01', '2100-12-01'])
      expect((await get(ctx, path(`startDate=${month}`), owner.tokens.jwt)).statusCode).toBe(200);
  });

  it('is for owners and admins; a cluster member is refused and another account sees only its own', async () => {
    expect((await get(ctx, path('startDate=2026-09-01'), people.admin.jwt)).statusCode).toBe(200);
    expect((await get(ctx, path('startDate=2026-09-01'), people.member.jwt)).statusCode).toBe(403);
    const stranger = await get(ctx, path('startDate=2026-09-01&format=json'), people.stranger.jwt);
    expect(stranger.statusCode).toBe(200);
    expect(stranger.json().entries).toEqual([]);
    expect((await get(ctx, path('startDate=2026-09-01'))).statusCode).toBe(401);
  });
});
