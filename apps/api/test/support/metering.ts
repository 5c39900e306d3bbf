import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { post, signUp, type TestContext } from './harness.js';
import type { Customer } from './money.js';

/** A cluster row made straight in the database (metering reads only its row and its audit log). */
export async function newMeteredCluster(
  ctx: TestContext,
  customer: Customer,
  subscriptionId: string,
  options: { name?: string; backup?: boolean; status?: string } = {},
): Promise<string> {
  const id = randomUUID();
  const now = ctx.clock.now();
  await ctx.database.db.execute(sql`
    insert into clusters (id, account_id, subscription_id, name, cloud_provider, region, backup_region, cidr, kumo_version, stack_name,
                          status, status_updated_at, created_by_user_id, created_at)
    values (${id}, ${customer.accountId}, ${subscriptionId}, ${options.name ?? `c${id.slice(0, 8)}`}, 'AWS', 'us-east-1',
            ${options.backup ? 'us-west-2' : null}, '10.0.0.0/16', '1.4.0', ${`kumo-${id}`}, ${options.status ?? 'DEPLOYING'}, ${now},
            ${customer.userId}, ${now})`);
  return id;
}

/** A lifecycle event of the cluster at the clock's time, as the clusters module writes it. */
export async function clusterEvent(ctx: TestContext, clusterId: string, event: string, status?: string): Promise<void> {
  const now = ctx.clock.now();
  await ctx.database.db.execute(sql`
    insert into cluster_audit_logs (cluster_id, event, description, actor_label, created_at)
    values (${clusterId}, ${event}, ${event}, 'System', ${now})`);
  if (status) {
    await ctx.database.db.execute(sql`
      update clusters set status = ${status}, status_updated_at = ${now},
        deleted_at = ${status === 'DELETED' ? now : null} where id = ${clusterId}`);
  }
}

export async function balanceCents(ctx: TestContext, subscriptionId: string): Promise<number> {
  const result = (await ctx.database.db.execute(
    sql`select balance_cents::text as b from subscriptions where id = ${subscriptionId}`,
  )) as unknown as {
    rows: { b: string }[];
  };
  return Number(result.rows[0]!.b);
}

export async function rows<T>(ctx: TestContext, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await ctx.database.db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** A signed-up owner with a subscription and a running cluster made straight in the database. */
export async function meteredOwner(ctx: TestContext, email: string, options: { backup?: boolean } = {}) {
  const tokens = await signUp(ctx, email);
  const created = await post(ctx, '/api/subscription/create', { subscription_name: 'Costs', remark: '' }, tokens.jwt);
  const subscriptionId: string = created.json().subscription_id;
  const [who] = await rows<{ account_id: string; user_id: string }>(
    ctx,
    sql`select a.id as account_id, u.id as user_id from users u join accounts a on a.owner_user_id = u.id where u.email = ${email}`,
  );
  const customer = { accountId: who!.account_id, userId: who!.user_id };
  const clusterId = await newMeteredCluster(ctx, customer, subscriptionId, { name: 'Alpha', backup: options.backup });
  await clusterEvent(ctx, clusterId, 'CLUSTER_RESOURCES_CREATED');
  await clusterEvent(ctx, clusterId, 'CLUSTER_DEPLOYED', 'ONLINE');
  return { tokens, subscriptionId, clusterId, customer };
}
