/**
 * What the people of the demo account do, each through the service that owns it, on the history clock: the owner
 * subscribes, pays by card in the sandbox checkout, deploys, starts and stops clusters and invites people; metering
 * charges the hours; staff look in from the admin area. Nothing here writes a table itself.
 */
import { randomBytes } from 'node:crypto';
import {
  createClusterRequestSchema,
  createSubscriptionRequestSchema,
  purchaseRequestSchema,
  type InvitableRole,
  type Role,
} from '@kumo/contract';
import { MINUTE } from '../clock.js';
import type { Database } from '../db/client.js';
import type { Services } from '../services.js';
import type { HistoryClock } from './history-clock.js';

/** The sandbox checkout's card that always pays. */
const TEST_CARD = '4242 4242 4242 4242';
/** How often a busy cluster is looked at while the history waits for the cloud (the follow job's part). */
const FOLLOW_STEP_MS = 5 * MINUTE;
/** A deployment takes an hour; anything busy for a day is a fault of the script, not a wait. */
const FOLLOW_STEPS_MAX = (24 * 60) / 5;

export type DemoAccount = ReturnType<typeof demoAccount>;

export function demoAccount(deps: {
  db: Database;
  services: Services;
  clock: HistoryClock;
  owner: { userId: string; accountId: string; name: string };
}) {
  const { db, services, clock, owner } = deps;
  const { accountId } = owner;
  /** The owner's claims, as the admin module reads the account on the owner's behalf. */
  const ownerClaims = { userId: owner.userId, sessionId: '', accountId, role: 'ACCOUNT_OWNER' as Role };
  const caller = (userId = owner.userId) => ({ accountId, userId });

  /** Looks at the cluster as the follow job does, time passing between looks, until the cloud is done with it. */
  async function settle(clusterId: string): Promise<void> {
    for (let step = 0; await services.clusters.reconcile(clusterId); step++) {
      if (step >= FOLLOW_STEPS_MAX) throw new Error(`Demo cluster ${clusterId} is still busy after a day`);
      clock.advance(FOLLOW_STEP_MS);
    }
  }

  return {
    async subscribe(name: string, remark: string): Promise<string> {
      const request = createSubscriptionRequestSchema.parse({ subscription_name: name, remark });
      return services.subscriptions.create(accountId, owner.userId, request);
    },

    /** Funds added by card: a purchase, paid with the test card in the sandbox checkout, credited under its session's key. */
    async topUp(subscriptionId: string, dollars: number, remark: string): Promise<void> {
      const sandbox = services.sandboxCheckout;
      if (!sandbox) throw new Error('The demo history pays through the sandbox checkout');
      const order = purchaseRequestSchema.parse({ amount: dollars, subscription_id: subscriptionId, remark });
      const { redirect_url } = await services.billing.purchase(accountId, owner.userId, order);
      const sessionId = decodeURIComponent(new URL(redirect_url).pathname.split('/').pop()!);
      const expiry = `12/${String((clock.now().getUTCFullYear() + 3) % 100).padStart(2, '0')}`;
      const paid = await sandbox.pay(sessionId, { cardNumber: TEST_CARD, expiry, cvc: '123', name: owner.name });
      if (paid?.kind !== 'redirect') throw new Error(`The sandbox checkout did not take the demo card: ${paid?.kind ?? 'no session'}`);
      const status = await services.billing.paymentStatus(accountId, subscriptionId, sessionId);
      if (status.transaction_status !== 'SUCCESSFUL') throw new Error(`Demo top-up ended ${status.transaction_status}`);
    },

    /** Deploys a cluster with the default version and a suggested network, and waits until it is online. */
    async deploy(
      subscriptionId: string,
      cluster: { name: string; description: string; region: string; backupRegion?: string },
    ): Promise<string> {
      const { kumo_versions } = await services.clusters.versions(accountId);
      const enableDr = cluster.backupRegion !== undefined;
      const { cidr } = await services.clusters.suggestCidr(accountId, {
        deploymentRegion: cluster.region,
        backupRegion: cluster.backupRegion,
        enableDrFlag: enableDr,
      });
      const order = createClusterRequestSchema.parse({
        subscription_id: subscriptionId,
        cluster_name: cluster.name,
        description: cluster.description,
        cloud_provider: 'AWS',
        enable_dr_flag: enableDr,
        cidr,
        region: cluster.region,
        backup_region: cluster.backupRegion ?? null,
        // Given to the simulated cloud and forgotten; nobody signs in with it. The prefix meets the password rule.
        password: `Kc#9${randomBytes(12).toString('hex')}`,
        kumo_version: kumo_versions.find((version) => version.default)!.version,
      });
      const { deploymentId } = await services.clusters.create(caller(), order);
      // The demo's running cluster stays up while people look at it: no query ever reaches it to keep it awake.
      await services.autoStop.put(accountId, deploymentId, { idleMinutes: null });
      await settle(deploymentId);
      return deploymentId;
    },

    /** Starts or stops a cluster on a member's request and waits until the cloud has done it. */
    async power(action: 'start' | 'stop', clusterId: string, byUserId?: string): Promise<void> {
      await services.clusters[action](caller(byUserId), clusterId);
      await settle(clusterId);
    },

    /** Metering's run for this account alone, at the history's time: new hours charged through the ledger. */
    meter: () => services.metering.run({ accountId }),

    /** A person who joined the account in a role (their invitation accepted long ago). */
    async addMember(person: { email: string; name: string }, role: 'ACCOUNT_ADMIN'): Promise<string> {
      return db.transaction(async (tx) => {
        const { id } = await services.accounts.addPerson({ ...person, createdAt: clock.now() }, tx);
        await services.accounts.addMember(accountId, id, role, clock.now(), tx);
        return id;
      });
    },

    /** An invitation mailed by the owner and not answered yet. */
    async invite(person: { email: string; name: string }, role: InvitableRole, subscriptionIds: string[]): Promise<void> {
      await services.users.invite(ownerClaims, { ...person, role, subscriptionIds });
    },

    staff: {
      /** A staff member views the console read-only for a while, then ends the view: both in the Staff access trail. */
      async viewConsole(staffUserId: string, minutes: number): Promise<void> {
        const { tokens } = await services.admin.switchUser(staffUserId, owner.userId);
        const claims = await services.auth.verifyAccessToken(tokens.jwtToken);
        clock.advance(minutes * MINUTE);
        await services.auth.endUserSwitch(claims);
      },
      letManagerIn: (staffUserId: string) =>
        services.admin.customers.manageKmAccess(owner.userId, { admin_access: true, km_user_role: 'Integration' }, staffUserId),
      offerPreview: (staffUserId: string) => services.admin.customers.setPreview(owner.userId, true, staffUserId),
      downloadTemplate: (staffUserId: string, clusterId: string) =>
        services.admin.customers.clusterTemplate(owner.userId, clusterId, staffUserId),
      openManager: (staffUserId: string, clusterId: string) => services.admin.customers.managerSso(owner.userId, clusterId, staffUserId),
    },
  };
}
