import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR, MINUTE } from '../../clock.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { startTestApp, type TestContext } from '../../../test/support/harness.js';
import { newCustomer, newSubscription, type Customer } from '../../../test/support/money.js';
import { balanceCents, clusterEvent, newMeteredCluster, rows } from '../../../test/support/metering.js';

const kinds = await databaseKinds();
const MAIL_DELIVER_QUEUE = 'mail-deliver';

/** The overdue guard starts from clusters, and its notices leave as soon as they commit. */
describe.each(kinds)('the overdue guard on %s', (kind) => {
  let ctx: TestContext;
  const warnings: { msg: string; subscriptionId?: string; clusters?: string[] }[] = [];
  beforeAll(async () => {
    const logger = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(JSON.parse(line)) });
    // Real hours: a billable hour lasts 60 minutes of the test clock.
    ctx = await startTestApp(kind, { cloud: { simTimeScale: 1 }, logger });
  });
  afterAll(() => ctx.close());

  async function runningCluster(customer: Customer, subscriptionId: string, name: string): Promise<string> {
    const clusterId = await newMeteredCluster(ctx, customer, subscriptionId, { name });
    await clusterEvent(ctx, clusterId, 'CLUSTER_RESOURCES_CREATED');
    await clusterEvent(ctx, clusterId, 'CLUSTER_DEPLOYED', 'ONLINE');
    return clusterId;
  }

  const statusOf = async (clusterId: string) =>
    (await rows<{ status: string }>(ctx, sql`select status from clusters where id = ${clusterId}`))[0]!.status;

  it('stops a cluster still running in a deleted subscription, says why in its audit log and the warning log', async () => {
    ctx.clock.set('2026-04-01T00:00:00Z');
    const customer = await newCustomer(ctx);
    const subscriptionId = await newSubscription(ctx, customer, 'Gone');
    const orphan = await runningCluster(customer, subscriptionId, 'Orphan');
    // The state the database refuses since the trigger (a cluster created while its subscription was being deleted):
    // made here with the subscription side of the trigger switched off inside one transaction.
    await ctx.database.db.transaction(async (tx) => {
      await tx.execute(sql`alter table subscriptions disable trigger subscriptions_deleted_without_live_clusters`);
      await tx.execute(sql`update subscriptions set deleted_at = ${ctx.clock.now()}, status = 'DELETED' where id = ${subscriptionId}`);
      await tx.execute(sql`alter table subscriptions enable trigger subscriptions_deleted_without_live_clusters`);
    });
    const before = await balanceCents(ctx, subscriptionId);

    ctx.clock.advance(2 * HOUR);
    await ctx.services.metering.run();

    expect(await statusOf(orphan)).toBe('STOPPING');
    const [audit] = await rows<{ description: string; actor_label: string }>(
      ctx,
      sql`select description, actor_label from cluster_audit_logs where cluster_id = ${orphan} order by seq desc limit 1`,
    );
    expect(audit).toEqual({
      description: 'Orphan is being stopped: its subscription SubGone was deleted, and no cluster may run outside a subscription.',
      actor_label: 'System',
    });
    expect(warnings).toContainEqual(
      expect.objectContaining({
        subscriptionId,
        clusters: ['Orphan'],
        msg: expect.stringContaining('stopped clusters that were running in a deleted subscription'),
      }),
    );
    // The hours it ran are charged to the ledger of the subscription it ran in, as every hour is.
    expect(await balanceCents(ctx, subscriptionId)).toBeLessThan(before);
  });

  it('queues delivery of the overdue-stop mail as soon as it commits, without waiting for the sweep', async () => {
    ctx.clock.set('2026-04-10T00:00:00Z');
    const customer = await newCustomer(ctx);
    const subscriptionId = await newSubscription(ctx, customer, 'Overdue');
    await runningCluster(customer, subscriptionId, 'Spender');
    // $500 of sign-up credits at about $6.55 an hour: below zero within 80 hours, and the overdue limit is 0.
    ctx.clock.advance(90 * HOUR);
    ctx.jobs.sent.length = 0;
    await ctx.services.metering.run();

    const [stopMail] = await rows<{ id: string }>(
      ctx,
      sql`select o.id from mail_outbox o join users u on u.email = o.to_address
          where u.id = ${customer.userId} and o.subject like '%were stopped'`,
    );
    expect(stopMail).toBeDefined();
    expect(ctx.jobs.sent).toContainEqual({ queue: MAIL_DELIVER_QUEUE, data: { id: stopMail!.id } });
  });

  it('queues delivery of the runway notice as soon as it commits', async () => {
    ctx.clock.set('2026-04-20T00:00:00Z');
    const customer = await newCustomer(ctx);
    const subscriptionId = await newSubscription(ctx, customer, 'Runway');
    await runningCluster(customer, subscriptionId, 'Steady');
    ctx.jobs.sent.length = 0;
    // $500 at about $6.55 an hour lasts about 76 hours: under 7 days at once.
    ctx.clock.advance(MINUTE);
    await ctx.services.metering.run();

    const notices = await rows<{ id: string }>(
      ctx,
      sql`select o.id from mail_outbox o join users u on u.email = o.to_address
          where u.id = ${customer.userId} and o.subject like '%runs out soon'`,
    );
    expect(notices).toHaveLength(1);
    expect(ctx.jobs.sent).toContainEqual({ queue: MAIL_DELIVER_QUEUE, data: { id: notices[0]!.id } });
  });
});
