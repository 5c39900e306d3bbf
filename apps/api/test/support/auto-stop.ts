import { sql } from 'drizzle-orm';
import { get, type TestContext } from './harness.js';
import { rows } from './metering.js';

/** A query in the cluster's history, written straight into cluster_queries as the SQL module would. */
export async function recordQuery(
  ctx: TestContext,
  clusterId: string,
  options: {
    at?: Date;
    status?: 'OK' | 'FAILED' | 'REFUSED';
    source?: 'CONSOLE' | 'ENDPOINT';
    address?: string | null;
    agent?: string | null;
    user?: string;
  } = {},
): Promise<void> {
  const [cluster] = await rows<{ account_id: string }>(ctx, sql`select account_id from clusters where id = ${clusterId}`);
  await ctx.database.db.execute(sql`
    insert into cluster_queries (cluster_id, account_id, started_at, duration_ms, row_count, status, source, user_label,
                                 client_address, user_agent, query)
    values (${clusterId}, ${cluster!.account_id}, ${(options.at ?? ctx.clock.now()).toISOString()}, 12, 1, ${options.status ?? 'OK'},
            ${options.source ?? 'ENDPOINT'}, ${options.user ?? 'kumo_admin'},
            ${options.address === undefined ? '203.0.113.7' : options.address}, ${options.agent === undefined ? 'DBeaver' : options.agent},
            'select 1')`);
}

/** The cluster's audit entries, newest first. */
export const auditOf = (ctx: TestContext, clusterId: string) =>
  rows<{ event: string; description: string; actor_label: string }>(
    ctx,
    sql`select event, description, actor_label from cluster_audit_logs where cluster_id = ${clusterId} order by seq desc`,
  );

/** The notices of a kind written for the account (every recipient). */
export const noticesOf = (ctx: TestContext, accountId: string, kind: string) =>
  rows<{ title: string; body: string; link: string }>(
    ctx,
    sql`select title, body, link from notices where account_id = ${accountId} and kind = ${kind} order by created_at`,
  );

/**
 * What a restart by the system left for people to see: the newest start in the cluster's timeline and the owner's
 * CLUSTER_RESTARTED notices in the bell, both read through the API as the console reads them.
 */
export async function restartShown(ctx: TestContext, jwt: string, clusterId: string) {
  const timeline = (await get(ctx, `/api/cluster/timeline/${clusterId}`, jwt)).json<{
    days: { entries: { kind: string; event?: string; description?: string; caused_by?: string }[] }[];
  }>();
  const start = timeline.days
    .flatMap((day) => day.entries)
    .find((entry) => entry.kind === 'EVENT' && entry.event === 'CLUSTER_START_REQUESTED');
  const bell = (await get(ctx, '/api/user/notifications?size=50', jwt)).json<{
    content: { kind: string; title: string; body: string; link: string }[];
  }>();
  return {
    timeline: start && { description: start.description, caused_by: start.caused_by },
    bell: bell.content.filter((notice) => notice.kind === 'CLUSTER_RESTARTED').map(({ title, body, link }) => ({ title, body, link })),
  };
}
