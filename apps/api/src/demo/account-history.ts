/**
 * Three months of the demo account, played on the history clock: two subscriptions paid by card, a cluster that runs
 * (with two maintenance weekends) and one that runs in bursts and is stopped now, an account admin, a pending
 * invitation and staff looking in. Metering charges every UTC midnight, as its minute job would have, so balances,
 * usage entries and cost rollups come out of the same code as in production.
 */
import { DAY, HOUR } from '../clock.js';
import type { DemoAccount } from './demo-account.js';
import type { HistoryClock } from './history-clock.js';

/** How far back the history begins: the cost screens' three months (the current one and the two before) are full. */
export const HISTORY_DAYS = 91;

export const DEMO_ADMIN = { email: 'jane.oneil-smith@demo.kumo.cloud', name: "Jane O'Neil-Smith" };
export const DEMO_INVITEE = { email: 'lukasz.nowak@demo.kumo.cloud', name: 'Łukasz Nowak' };
export const DEMO_SUBSCRIPTIONS = {
  production: { name: 'Production', remark: 'Dashboards for the sales and finance teams' },
  dataScience: { name: 'Data Science', remark: 'Model training and experiments' },
} as const;
export const DEMO_CLUSTERS = {
  /** Runs now; with disaster recovery, so every dimension is charged. */
  running: { name: 'Sales-Analytics', description: 'Sales and finance dashboards', region: 'us-east-1', backupRegion: 'us-west-2' },
  /** Runs a week at a time for experiments; stopped now. */
  stopped: { name: 'Churn-Models', description: 'Churn prediction experiments', region: 'eu-west-1' },
} as const;

/** The staff who look in: user ids by role, from the demo people. */
export interface DemoStaffIds {
  admin: string;
  devops: string;
  support: string;
}

/** The first instant of the history: UTC midnight, HISTORY_DAYS before `end`. */
export function historyStart(end: Date): Date {
  const back = new Date(end.getTime() - HISTORY_DAYS * DAY);
  return new Date(Date.UTC(back.getUTCFullYear(), back.getUTCMonth(), back.getUTCDate()));
}

interface Step {
  at: Date;
  run(): Promise<void>;
}

/** Plays the history from the clock's start to `end`, charging at every UTC midnight on the way and at `end`. */
export async function playAccountHistory(deps: { account: DemoAccount; clock: HistoryClock; end: Date; staff: DemoStaffIds }) {
  const { account, clock, end, staff } = deps;
  const start = clock.now();
  const day = (n: number, hour: number) => new Date(start.getTime() + n * DAY + hour * HOUR);
  const ago = (ms: number) => new Date(end.getTime() - ms);
  const ids = { production: '', dataScience: '', running: '', stopped: '', admin: '' };
  const { production, dataScience } = DEMO_SUBSCRIPTIONS;

  // Steps are at least an hour apart where a cluster is deployed: the cloud takes about 75 minutes.
  const steps: Step[] = [
    // The owner's first subscription comes with the sign-up free credits.
    { at: day(0, 9), run: async () => void (ids.production = await account.subscribe(production.name, production.remark)) },
    { at: day(0, 10), run: () => account.topUp(ids.production, 6_000, 'Initial funds') },
    { at: day(0, 11), run: async () => void (ids.running = await account.deploy(ids.production, DEMO_CLUSTERS.running)) },
    { at: day(1, 10), run: async () => void (ids.admin = await account.addMember(DEMO_ADMIN, 'ACCOUNT_ADMIN')) },
    { at: day(6, 14), run: async () => void (ids.dataScience = await account.subscribe(dataScience.name, dataScience.remark)) },
    { at: day(6, 15), run: () => account.topUp(ids.dataScience, 3_000, 'Experiments budget') },
    { at: day(6, 16), run: async () => void (ids.stopped = await account.deploy(ids.dataScience, DEMO_CLUSTERS.stopped)) },
    // Both clusters online: staff may be let into Kumo Manager.
    { at: day(8, 11), run: async () => void (await account.staff.letManagerIn(staff.admin)) },
    { at: day(11, 18), run: () => account.power('stop', ids.stopped, ids.admin) },
    { at: day(20, 19), run: () => account.power('stop', ids.running) },
    { at: day(22, 6), run: () => account.power('start', ids.running) },
    { at: day(27, 9), run: () => account.power('start', ids.stopped, ids.admin) },
    { at: day(30, 9), run: () => account.topUp(ids.production, 6_000, 'Monthly top-up') },
    { at: day(32, 18), run: () => account.power('stop', ids.stopped, ids.admin) },
    { at: day(41, 9), run: () => account.topUp(ids.dataScience, 3_000, 'Experiments budget') },
    { at: day(41, 10), run: () => account.power('start', ids.stopped) },
    { at: day(46, 18), run: () => account.power('stop', ids.stopped) },
    { at: day(51, 19), run: () => account.power('stop', ids.running) },
    { at: day(53, 6), run: () => account.power('start', ids.running) },
    { at: day(60, 9), run: () => account.topUp(ids.production, 6_000, 'Monthly top-up') },
    { at: day(62, 9), run: () => account.power('start', ids.stopped, ids.admin) },
    { at: day(67, 18), run: () => account.power('stop', ids.stopped, ids.admin) },
    { at: day(80, 9), run: () => account.topUp(ids.production, 5_000, 'Monthly top-up') },
    // The last weeks, counted back from now so the current month's Staff access trail has them.
    { at: ago(9 * DAY), run: () => account.staff.viewConsole(staff.support, 12) },
    { at: ago(6 * DAY), run: async () => void (await account.staff.offerPreview(staff.admin)) },
    { at: ago(5 * DAY), run: async () => void (await account.staff.downloadTemplate(staff.devops, ids.stopped)) },
    // A short maintenance stop, near the top of the running cluster's timeline.
    { at: ago(3 * DAY), run: () => account.power('stop', ids.running, ids.admin) },
    { at: ago(3 * DAY - 2 * HOUR), run: () => account.power('start', ids.running, ids.admin) },
    { at: ago(2 * DAY), run: () => account.invite(DEMO_INVITEE, 'CLUSTER_MEMBER', [ids.dataScience]) },
    { at: ago(26 * HOUR), run: () => account.staff.viewConsole(staff.admin, 20) },
    { at: ago(3 * HOUR), run: async () => void (await account.staff.openManager(staff.admin, ids.running)) },
  ];

  /** Charges every UTC midnight up to `at`, then stands at `at`. */
  async function chargeUntil(at: Date): Promise<void> {
    for (let midnight = nextMidnight(clock.now()); midnight <= at; midnight = new Date(midnight.getTime() + DAY)) {
      clock.moveTo(midnight);
      await account.meter();
    }
    clock.moveTo(at);
  }

  for (const step of steps.sort((a, b) => a.at.getTime() - b.at.getTime())) {
    await chargeUntil(step.at);
    await step.run();
  }
  await chargeUntil(end);
  await account.meter();
}

function nextMidnight(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1));
}
