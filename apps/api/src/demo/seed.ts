import type { SystemRole } from '@kumo/contract';
import { SANDBOX_EVENTS_QUEUE } from '../adapters/payments/index.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import { seedDemoUsers, type DemoPeople } from '../modules/auth/index.js';
import { createServices, type Infrastructure } from '../services.js';
import { playAccountHistory, historyStart } from './account-history.js';
import { demoAccount } from './demo-account.js';
import { HistoryClock } from './history-clock.js';

export const DEMO_CUSTOMER = { email: 'owner@demo.kumo.cloud', name: 'Dana Demo' };
export const DEMO_STAFF = { email: 'staff@kumo.cloud', name: 'Sam Staff', role: 'SYSTEM_ADMIN' as SystemRole };
/** A second SYSTEM_ADMIN, so a sensitive action asked by one can be approved by the other (four eyes). */
export const DEMO_APPROVER = { email: 'approver@kumo.cloud', name: 'Alex Approver', role: 'SYSTEM_ADMIN' as SystemRole };
/**
 * One staff member of each other role, to see what each may do (docs/permissions.md). None is a SYSTEM_ADMIN,
 * so none approves sensitive actions unless APPROVER_EMAILS names them.
 */
export const DEMO_ROLE_STAFF = [
  { email: 'devops@kumo.cloud', name: 'Dev Ops', role: 'SYSTEM_DEVOPS' as SystemRole },
  { email: 'billing@kumo.cloud', name: 'Bill Billing', role: 'SYSTEM_BILLING' as SystemRole },
  { email: 'support@kumo.cloud', name: 'Sue Support', role: 'SYSTEM_SUPPORT' as SystemRole },
];
export { DEMO_ADMIN, DEMO_CLUSTERS, DEMO_INVITEE, DEMO_SUBSCRIPTIONS } from './account-history.js';

/** Seeds the demo data when DEV_TOOLS names `demo` (every tool on the embedded default); says whether it did. */
export async function seedDemoWhenAsked(config: Pick<Config, 'devTools'>, infra: Infrastructure): Promise<boolean> {
  if (!config.devTools.demo) return false;
  await seedDemoData(infra);
  return true;
}

/** The demo customer (an account owner), the staff member, the approver and a staff member of each other role, once. */
export function seedDemoPeople(db: Database, clock: Clock): Promise<DemoPeople> {
  return seedDemoUsers(db, clock, { customer: DEMO_CUSTOMER, staff: [DEMO_STAFF, DEMO_APPROVER, ...DEMO_ROLE_STAFF] });
}

/**
 * Creates the demo customer (an account owner), the staff member, the approver and a staff member of each other role,
 * once; then, once, the customer's last three months (account-history.ts), written by the modules' own services on a
 * clock set back in time, up to the present of `infra.clock`. An account that has a subscription already is left as
 * it is, so a restart adds nothing.
 */
export async function seedDemoData(infra: Infrastructure): Promise<void> {
  const end = infra.clock.now();
  const clock = new HistoryClock(historyStart(end));
  const people = await seedDemoPeople(infra.db, clock);
  // The history's clusters run in the simulated cloud, at real speed on the history clock: a billable hour is an hour.
  // Against AWS (or a cloud driver handed in) there would be no stacks behind them, so the history is left out there.
  if (infra.cloud?.driver === 'aws' || infra.cloud?.provisioner) return;
  const services = createServices({
    ...infra,
    clock,
    // The history confirms its card payments itself; the sandbox's after-the-fact notices would reach a portal whose
    // payment provider may be another.
    jobs: { send: (queue, data, options) => (queue === SANDBOX_EVENTS_QUEUE ? Promise.resolve() : infra.jobs.send(queue, data, options)) },
    cloud: { driver: 'simulated', simTimeScale: 1 },
    payments: { allowSandbox: true },
  });
  const { accountId, userId } = people.customer;
  if ((await services.subscriptions.list(accountId)).length > 0) return;
  const staffId = (role: SystemRole) => people.staffIds.get([DEMO_STAFF, ...DEMO_ROLE_STAFF].find((m) => m.role === role)!.email)!;
  await playAccountHistory({
    account: demoAccount({ db: infra.db, services, clock, owner: { accountId, userId, name: DEMO_CUSTOMER.name } }),
    clock,
    end,
    staff: {
      admin: staffId('SYSTEM_ADMIN'),
      devops: staffId('SYSTEM_DEVOPS'),
      support: staffId('SYSTEM_SUPPORT'),
    },
  });
}
