/**
 * What someone who reads the database (a leaked backup, a read replica, a curious operator) learns: no secret the
 * portal issued. The test issues every kind, then reads every text, json and bytea column of every table.
 *
 * The services' jobs go to a recording queue here, so pg-boss's tables stay empty; what they would hold is what the
 * services send, and every payload is ids only (a mail's outbox id, a cluster's, a webhook delivery's, an automatic
 * top-up's key, an auto-stop's account and cluster, a sandbox payment's session or subscription id): the test reads
 * every payload sent for the secrets too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { SignJWT, decodeJwt } from 'jose';
import { TOKENS } from '@kumo/contract';
import { KEY_PURPOSES } from '../src/lib/keys.js';
import { StoredSecretMismatchError, loadAuthSecret } from '../src/modules/auth/index.js';
import { databaseKinds, openTestDatabase } from './support/databases.js';
import { CLUSTER_TEST_APP, clusterSteps } from './support/clusters.js';
import { fourEyesSteps } from './support/four-eyes.js';
import { TEST_KEYS, TEST_SECRET, get, latestOtp, post, startTestApp, type TestContext, type Tokens } from './support/harness.js';

const kinds = await databaseKinds();

interface Secret {
  label: string;
  value: string;
}

/** Every place a stored value could hold `secret`: as it is, and in the encodings a careless write would use. */
function foundIn(stored: string | Buffer, secret: string): boolean {
  const texts = Buffer.isBuffer(stored) ? [stored.toString('utf8'), stored.toString('hex'), stored.toString('base64')] : [stored];
  // A 6-digit OTP is matched as a number of its own, not inside a longer one (an id, an amount).
  if (/^\d{6}$/.test(secret)) return texts.some((text) => new RegExp(`(^|\\D)${secret}(\\D|$)`).test(text));
  const raw = Buffer.from(secret, 'utf8');
  const forms = [secret, raw.toString('hex'), raw.toString('base64'), raw.toString('base64url')];
  return texts.some((text) => forms.some((form) => text.includes(form)));
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Which table columns (schema.table.column) hold any of the secrets, and which. */
async function secretsAtRest(ctx: TestContext, secrets: Secret[]): Promise<string[]> {
  const { rows: columns } = await ctx.database.db.execute<{
    table_schema: string;
    table_name: string;
    column_name: string;
    data_type: string;
  }>(
    sql`select c.table_schema, c.table_name, c.column_name, c.data_type
        from information_schema.columns c
        join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
        where c.table_schema not in ('pg_catalog', 'information_schema')
          and (c.data_type in ('text', 'character varying', 'character', 'json', 'jsonb', 'bytea', 'ARRAY') or c.udt_name = 'citext')`,
  );
  expect(columns.some((column) => column.table_name === 'mail_outbox' && column.column_name === 'text_body')).toBe(true);
  const found: string[] = [];
  for (const column of columns) {
    const value = column.data_type === 'bytea' ? quote(column.column_name) : `${quote(column.column_name)}::text`;
    const { rows } = await ctx.database.db.execute<{ v: string | Buffer }>(
      sql.raw(
        `select ${value} as v from ${quote(column.table_schema)}.${quote(column.table_name)} where ${quote(column.column_name)} is not null`,
      ),
    );
    for (const secret of secrets) {
      if (rows.some((row) => foundIn(row.v, secret.value))) {
        found.push(`${column.table_schema}.${column.table_name}.${column.column_name}: ${secret.label}`);
      }
    }
  }
  return found;
}

/** A staff access token for the same session, signed with `key`. */
async function forgedCopyOf(ctx: TestContext, token: string, key: string): Promise<string> {
  const { sub, sid, acc, role } = decodeJwt(token);
  const now = Math.floor(ctx.clock.now().getTime() / 1000);
  return new SignJWT({ sid, acc, role })
    .setProtectedHeader({ alg: 'HS256', typ: 'access+jwt' })
    .setSubject(sub!)
    .setIssuer(TOKENS.issuer)
    .setAudience(TOKENS.audience)
    .setIssuedAt(now)
    .setExpirationTime(now + 600)
    .sign(Buffer.from(key, 'utf8'));
}

describe.each(kinds)('secrets at rest on %s', (kind) => {
  let ctx: TestContext;
  const { emails, staff, signInStaff, customer, addFunds, ask, complete } = fourEyesSteps(() => ctx);
  const { deployOnline } = clusterSteps(() => ctx);

  beforeAll(async () => {
    ctx = await startTestApp(kind, { webhookAllowPrivate: true, ...CLUSTER_TEST_APP });
    await signInStaff();
  });
  afterAll(() => ctx.close());

  it('no OTP, approval OTP, invitation token, refresh token, API token, webhook secret, cluster password or key is readable in any table', async () => {
    const secrets: Secret[] = [];
    const c = await customer();
    const owner: Tokens = c.tokens;

    // Four eyes: a billing member asks, an admin's OTP approves.
    const asked = await ask(addFunds(c, 5000, 'Goodwill'), staff.billing);
    expect(asked.statusCode).toBe(200);
    const approvalOtp = await latestOtp(ctx, emails.adminA);
    expect((await complete(asked.json().operation_id as string, staff.billing, approvalOtp)).statusCode).toBe(200);
    secrets.push({ label: 'approval OTP', value: approvalOtp });

    // An invitation, an API token and a webhook endpoint.
    const invitee = `at-rest.invitee.${Date.now()}@example.com`;
    const invited = await post(
      ctx,
      '/api/user/invite',
      { invited_user_id: invitee, invited_user_name: 'Ivy Invited', role: 'ACCOUNT_ADMIN' },
      owner.jwt,
    );
    expect(invited.statusCode).toBe(200);
    const apiToken = await post(
      ctx,
      '/api/user/api-tokens',
      { name: 'nightly', scope: 'READ', expires_in_days: 7, allowed_ips: [] },
      owner.jwt,
    );
    expect(apiToken.statusCode).toBe(200);
    secrets.push({ label: 'API token', value: apiToken.json().token as string });
    const webhook = await post(ctx, '/api/account/webhooks', { url: 'http://127.0.0.1:9/kumo', events: ['top_up.failed'] }, owner.jwt);
    expect(webhook.statusCode).toBe(200);
    secrets.push({ label: 'webhook signing secret', value: webhook.json().secret as string });

    // A cluster with the SQL password chosen at create (the cloud keeps only its slow hash) and the portal's own SQL
    // credential for it (kept sealed); then its deletion asked for, which mails the owner an approval OTP.
    const clusterPassword = 'At-R3st#Cluster-pw';
    const clusterId = await deployOnline(owner.jwt, c.subscriptionId, { cluster_name: 'Rest_Cluster', password: clusterPassword });
    secrets.push({ label: 'cluster SQL password', value: clusterPassword });
    const [stored] = (
      await ctx.database.db.execute<{ sealed: string; hash: string }>(
        sql`select c.sealed_sql_credential as sealed, s.sql_password_hash as hash
            from clusters c join sim_cloud_stacks s on s.deployment_id = c.id::text where c.id = ${clusterId}`,
      )
    ).rows;
    expect(stored!.hash).toMatch(/^scrypt\$/);
    secrets.push({ label: "the portal's SQL credential for the cluster", value: TEST_KEYS.clusterPasswords.open(stored!.sealed) });
    const deletion = await post(
      ctx,
      '/api/user/operation',
      { action_name: 'customer_delete_cluster', action_payload: { deployment_id: clusterId } },
      owner.jwt,
    );
    expect(deletion.statusCode, deletion.body).toBe(200);
    secrets.push({ label: 'cluster deletion OTP', value: await latestOtp(ctx, c.email) });

    // Every OTP and invitation link the portal mailed, read the way the dev mailbox reads them.
    const mails = await ctx.services.mail.listRecent(500);
    for (const mail of mails) {
      const otp = mail.kind === 'otp' ? mail.textBody.match(/\b(\d{6})\b/)?.[1] : undefined;
      if (otp) secrets.push({ label: `OTP mailed to ${mail.toAddress}`, value: otp });
      const invitation = mail.textBody.match(/token=([\w-]+)/)?.[1];
      if (invitation) secrets.push({ label: `invitation token for ${mail.toAddress}`, value: invitation });
    }
    expect(secrets.filter((secret) => secret.label.startsWith('OTP')).length).toBeGreaterThanOrEqual(6);
    expect(secrets.some((secret) => secret.label.startsWith('invitation token'))).toBe(true);

    for (const [who, tokens] of Object.entries({ ...staff, owner }))
      secrets.push({ label: `refresh token of ${who}`, value: tokens.refresh });
    secrets.push({ label: 'master secret', value: TEST_SECRET });
    for (const purpose of KEY_PURPOSES) secrets.push({ label: `${purpose} key`, value: TEST_KEYS.text(purpose) });

    expect(await secretsAtRest(ctx, secrets)).toEqual([]);
    // What pg-boss would keep: the payload of every job the services sent.
    expect(ctx.jobs.sent.length).toBeGreaterThan(0);
    const payloads = ctx.jobs.sent.map((job) => `${job.queue} ${JSON.stringify(job.data)}`);
    expect(secrets.filter((secret) => payloads.some((payload) => foundIn(payload, secret.value)))).toEqual([]);
  });

  it('a staff token signed with the master secret itself is refused; only the access-token key signs', async () => {
    const forgedWithMaster = await forgedCopyOf(ctx, staff.adminA.jwt, TEST_SECRET);
    expect((await get(ctx, '/api/admin/users', forgedWithMaster)).statusCode).toBe(401);
    const signedWithItsKey = await forgedCopyOf(ctx, staff.adminA.jwt, TEST_KEYS.text('access-tokens'));
    expect((await get(ctx, '/api/admin/users', signedWithItsKey)).statusCode).toBe(200);
  });
});

describe.each(kinds)('the master secret on %s', (kind) => {
  const configured = 'a-configured-master-secret-of-32-characters-or-more';

  it('a generated one is for development: AUTH_SECRET equal to it takes it out of the database, a different one is refused', async () => {
    const database = await openTestDatabase(kind);
    try {
      const now = new Date('2026-03-10T09:00:00Z');
      const stored = async () => (await database.db.execute<{ name: string }>(sql`select name from server_secrets`)).rows;
      const generated = await loadAuthSecret(database.db, undefined, now);
      expect(await loadAuthSecret(database.db, undefined, now)).toBe(generated);
      expect(await stored()).toHaveLength(1);

      await expect(loadAuthSecret(database.db, configured, now)).rejects.toBeInstanceOf(StoredSecretMismatchError);
      expect(await stored()).toHaveLength(1);

      expect(await loadAuthSecret(database.db, generated, now)).toBe(generated);
      expect(await stored()).toEqual([]);
      expect(await loadAuthSecret(database.db, configured, now)).toBe(configured);
      expect(await stored()).toEqual([]);
    } finally {
      await database.close();
    }
  });
});
