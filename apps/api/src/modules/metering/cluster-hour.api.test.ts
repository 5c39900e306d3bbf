import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE } from '../../clock.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { startTestApp, type TestContext } from '../../../test/support/harness.js';
import { newCustomer, newSubscription } from '../../../test/support/money.js';
import { clusterEvent, newMeteredCluster } from '../../../test/support/metering.js';
import { DEFAULT_RATES, clusterHourCents } from './rate-card.js';

const kinds = await databaseKinds();

describe.each(kinds)('the hourly rate of clusters billed by hours of different lengths on %s', (kind) => {
  let realHours: TestContext;
  let simulated: TestContext;
  beforeAll(async () => {
    realHours = await startTestApp(kind, { cloud: { simTimeScale: 1 } });
    // A portal on the same data whose simulated cloud runs 60 times faster: its new clusters bill a minute as an hour.
    simulated = await startTestApp(kind, { sameDatabaseAs: realHours, cloud: { simTimeScale: 60 } });
  });
  afterAll(async () => {
    await simulated.close();
    await realHours.close();
  });

  it("tells the rate and the runway per billable hour, however long a cluster's billable hour lasts", async () => {
    const customer = await newCustomer(simulated);
    const subscription = await newSubscription(simulated, customer);
    const cluster = await newMeteredCluster(simulated, customer, subscription);
    await clusterEvent(simulated, cluster, 'CLUSTER_RESOURCES_CREATED');
    await clusterEvent(simulated, cluster, 'CLUSTER_DEPLOYED', 'ONLINE');
    const perBillableHour = clusterHourCents(DEFAULT_RATES, 'running', false);

    // Unseen by metering, it would bill the portal's hour (a real minute); the rate is still per billable hour.
    const [unseen] = await simulated.services.metering.subscriptionOverview(customer.accountId);
    expect(unseen!.hourlyCents).toBe(perBillableHour);

    // Seen first by the real-hour portal, it bills real hours: the same rate, whichever portal answers.
    realHours.clock.advance(10 * MINUTE);
    await realHours.services.metering.run();
    simulated.clock.set(realHours.clock.now());
    const [seen] = await simulated.services.metering.subscriptionOverview(customer.accountId);
    expect(seen!.hourlyCents).toBeCloseTo(perBillableHour, 6);
    expect(seen!.runwayHours).toBeCloseTo(seen!.balanceCents / seen!.hourlyCents, 0);
  });
});
