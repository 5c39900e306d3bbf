import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { CLUSTER_MESSAGES } from '@kumo/contract';
import { databaseKinds } from '../../../test/support/databases.js';
import { createSubscription } from '../../../test/support/checkout.js';
import { errorCode, errorMessage, get, post, startTestApp, type TestContext } from '../../../test/support/harness.js';
import { CLUSTER_PASSWORD as PASSWORD, CLUSTER_TEST_APP, clusterSteps } from '../../../test/support/clusters.js';

const kinds = await databaseKinds();

describe.each(kinds)('creating clusters on %s', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp(kind, CLUSTER_TEST_APP);
  });
  afterAll(() => ctx.close());
  const { customer, body, createCluster } = clusterSteps(() => ctx);

  it('offers regions with their backup regions, versions by the preview flag, and a free /16', async () => {
    const { jwt, subscriptionId } = await customer();
    const regions = (await get(ctx, '/api/cluster/region-mapping?cloudProvider=AWS', jwt)).json().region_mapping;
    expect(regions).toContainEqual({ region: 'us-east-1', backup_regions: ['us-east-2', 'us-west-2'] });

    expect((await get(ctx, '/api/cluster/check-kumo-ea-version', jwt)).json()).toEqual({ kumo_ea_version_enabled: false });
    const ga = (await get(ctx, '/api/cluster/kumo-versions', jwt)).json().kumo_versions as { version: string; default: boolean }[];
    expect(ga.filter((v) => v.default)).toHaveLength(1);
    expect(ga.some((v) => v.version.includes('preview'))).toBe(false);
    // A preview version is refused until the preview release is on.
    const refused = await post(ctx, '/api/cluster/create', body(subscriptionId, { kumo_version: '2027.01.0-preview.2' }), jwt);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().field_errors).toEqual({ kumo_version: CLUSTER_MESSAGES.versionUnknown });

    const me = (await get(ctx, '/api/user/detail', jwt)).json();
    await ctx.services.accounts.setPreviewEnabled(me.accounts[0].account_id, true);
    expect((await get(ctx, '/api/cluster/check-kumo-ea-version', jwt)).json()).toEqual({ kumo_ea_version_enabled: true });
    const withPreview = (await get(ctx, '/api/cluster/kumo-versions', jwt)).json().kumo_versions as { version: string }[];
    expect(withPreview.some((v) => v.version === '2027.01.0-preview.2')).toBe(true);

    const cidr = (query: string) => get(ctx, `/api/cluster/cidr?${query}`, jwt);
    expect((await cidr('deploymentRegion=us-east-1&enableDrFlag=false&cloudProvider=AWS')).json()).toEqual({ cidr: '10.0.0.0/16' });
    await createCluster(jwt, subscriptionId, {
      cidr: '10.0.0.0/16',
      region: 'us-east-1',
      enable_dr_flag: true,
      backup_region: 'us-west-2',
    });
    expect((await cidr('deploymentRegion=us-east-1&enableDrFlag=false')).json().cidr).toBe('10.1.0.0/16');
    // us-west-2 holds the first cluster's backups: a cluster there with DR to it must avoid 10.0/16 too.
    expect((await cidr('deploymentRegion=us-west-2&enableDrFlag=false')).json().cidr).toBe('10.1.0.0/16');
    expect((await cidr('deploymentRegion=eu-west-1&enableDrFlag=false')).json().cidr).toBe('10.0.0.0/16');
    expect((await cidr('deploymentRegion=eu-west-1&enableDrFlag=true&backupRegion=eu-central-1')).json().cidr).toBe('10.0.0.0/16');
    const unknown = await cidr('deploymentRegion=mars-1&enableDrFlag=false');
    expect(unknown.statusCode).toBe(400);
    expect((await cidr('deploymentRegion=eu-west-1&enableDrFlag=true&backupRegion=us-east-1')).statusCode).toBe(400);
    expect((await cidr('enableDrFlag=false')).statusCode).toBe(400);
  });

  it('checks every create rule on the server, with a map of field errors', async () => {
    const { jwt, subscriptionId } = await customer();
    const expectFieldError = async (overrides: Record<string, unknown>, field: string, message: string) => {
      const response = await post(ctx, '/api/cluster/create', body(subscriptionId, overrides), jwt);
      expect(response.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(response.json().field_errors?.[field], JSON.stringify(overrides)).toBe(message);
    };
    await expectFieldError({ cluster_name: '' }, 'cluster_name', CLUSTER_MESSAGES.nameRequired);
    await expectFieldError({ cluster_name: 'ab' }, 'cluster_name', CLUSTER_MESSAGES.nameLength);
    await expectFieldError({ cluster_name: 'a'.repeat(51) }, 'cluster_name', CLUSTER_MESSAGES.nameLength);
    await expectFieldError({ cluster_name: '1abc' }, 'cluster_name', CLUSTER_MESSAGES.nameFormat);
    await expectFieldError({ cluster_name: 'ab1cd' }, 'cluster_name', CLUSTER_MESSAGES.nameFormat);
    await expectFieldError({ cluster_name: 'abc$' }, 'cluster_name', CLUSTER_MESSAGES.nameFormat);
    await expectFieldError({ description: 'x'.repeat(201) }, 'description', CLUSTER_MESSAGES.descriptionTooLong);
    await expectFieldError({ cidr: '' }, 'cidr', CLUSTER_MESSAGES.cidrRequired);
    await expectFieldError({ cidr: '10.0.0.256/16' }, 'cidr', CLUSTER_MESSAGES.cidrFormat);
    await expectFieldError({ cidr: '10.0.0.0/33' }, 'cidr', CLUSTER_MESSAGES.cidrFormat);
    await expectFieldError({ cidr: '10.0.0.0' }, 'cidr', CLUSTER_MESSAGES.cidrFormat);
    await expectFieldError({ cidr: '10.0.0.0/8' }, 'cidr', CLUSTER_MESSAGES.cidrPrefixRange);
    await expectFieldError({ cidr: '10.0.0.1/16' }, 'cidr', CLUSTER_MESSAGES.cidrNetworkAddress);
    await expectFieldError({ region: '' }, 'region', CLUSTER_MESSAGES.regionRequired);
    await expectFieldError({ region: 'mars-1' }, 'region', CLUSTER_MESSAGES.regionUnknown);
    await expectFieldError({ enable_dr_flag: true, backup_region: null }, 'backup_region', CLUSTER_MESSAGES.backupRegionRequired);
    await expectFieldError({ enable_dr_flag: false, backup_region: 'us-west-2' }, 'backup_region', CLUSTER_MESSAGES.backupRegionWithoutDr);
    await expectFieldError({ enable_dr_flag: true, backup_region: 'eu-west-1' }, 'backup_region', CLUSTER_MESSAGES.backupRegionInvalid);
    await expectFieldError({ cloud_provider: 'AZURE' }, 'cloud_provider', CLUSTER_MESSAGES.cloudProviderUnsupported);
    await expectFieldError({ password: '' }, 'password', CLUSTER_MESSAGES.passwordRequired);
    for (const weak of ['Short#1a', 'alllowercase#123', 'NoDigits#Here!', 'NoSpecial12345', 'Has Space#1234', ' Lead#12345678']) {
      await expectFieldError({ password: weak }, 'password', CLUSTER_MESSAGES.passwordFormat);
    }
    await expectFieldError({ kumo_version: '' }, 'kumo_version', CLUSTER_MESSAGES.versionRequired);
    await expectFieldError({ subscription_id: 'nope' }, 'subscription_id', CLUSTER_MESSAGES.subscriptionRequired);

    // Names are unique within the subscription, whatever the case; CIDRs may not overlap in the same regions.
    await createCluster(jwt, subscriptionId, { cluster_name: 'Unique_One', cidr: '10.20.0.0/16' });
    const taken = await post(ctx, '/api/cluster/create', body(subscriptionId, { cluster_name: 'unique_one', cidr: '10.21.0.0/16' }), jwt);
    expect(taken.statusCode).toBe(409);
    expect(errorCode(taken)).toBe('CLUSTER_NAME_TAKEN');
    expect(taken.json().field_errors).toEqual({ cluster_name: CLUSTER_MESSAGES.nameTaken });
    const overlap = await post(
      ctx,
      '/api/cluster/create',
      body(subscriptionId, { cluster_name: 'Another_One', cidr: '10.20.128.0/17' }),
      jwt,
    );
    expect(overlap.statusCode).toBe(409);
    expect(errorCode(overlap)).toBe('CIDR_OVERLAP');
    // The same name in another subscription is fine.
    const other = await createSubscription(ctx, jwt, 'Second');
    // …but that subscription has no funds: the spec's balance message.
    const poor = await post(ctx, '/api/cluster/create', body(other, { cluster_name: 'Unique_One', cidr: '10.22.0.0/16' }), jwt);
    expect(poor.statusCode).toBe(422);
    expect(errorCode(poor)).toBe('INSUFFICIENT_BALANCE');
    expect(errorMessage(poor)).toBe(CLUSTER_MESSAGES.insufficientBalance);

    // Another account's subscription is unknown.
    const stranger = await customer();
    expect(
      (await post(ctx, '/api/cluster/create', body(subscriptionId, { cluster_name: 'Sneaky_One', cidr: '10.30.0.0/16' }), stranger.jwt))
        .statusCode,
    ).toBe(404);
  });

  it('never stores the password in plain text and forgets it once the cloud has it', async () => {
    const { jwt, subscriptionId } = await customer();
    const created = await post(ctx, '/api/cluster/create', body(subscriptionId, { cluster_name: 'Secretive' }), jwt);
    const id = String(created.json().deployment_id);
    const row = async () =>
      (await ctx.database.db.execute(sql`select sealed_password, stack_id from clusters where id = ${id}`)).rows[0] as {
        sealed_password: string | null;
        stack_id: string | null;
      };
    const before = await row();
    expect(before.sealed_password).toBeTruthy();
    expect(before.sealed_password).not.toContain(PASSWORD);
    expect(Buffer.from(before.sealed_password!, 'base64url').toString('latin1')).not.toContain(PASSWORD);
    expect(JSON.stringify(ctx.jobs.sent)).not.toContain(PASSWORD);
    await ctx.services.clusters.reconcile(id);
    const after = await row();
    expect(after.sealed_password).toBeNull();
    expect(after.stack_id).toMatch(/^arn:aws:cloudformation:us-east-1:/);
    const stacks = await ctx.database.db.execute(sql`select * from sim_cloud_stacks where deployment_id = ${id}`);
    expect(JSON.stringify(stacks.rows)).not.toContain(PASSWORD);
  });
});
