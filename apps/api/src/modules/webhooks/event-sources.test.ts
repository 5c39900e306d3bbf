import { describe, expect, it } from 'vitest';
import { eventOfNotice, eventsOfClusterAudit } from './event-sources.js';

const SUBSCRIPTION_ID = '6a1f0c2e-9b3d-4e5f-8a7b-1c2d3e4f5a6b';

describe('webhook events of notices', () => {
  it('sends the subscription the notice names, whatever its console link looks like', () => {
    const notice = { accountId: 'acc', kind: 'BUDGET_ALERT' as const, key: 'k', title: 'Costs: 90%', body: 'Spent.' };
    // A renamed route (or none at all) changes nothing: the id is the writer's, not read out of the link.
    expect(eventOfNotice({ ...notice, subscriptionId: SUBSCRIPTION_ID, link: `/billing/plans/${SUBSCRIPTION_ID}` } as never)?.data).toEqual(
      {
        subscription_id: SUBSCRIPTION_ID,
        title: 'Costs: 90%',
        message: 'Spent.',
      },
    );
    expect(eventOfNotice({ ...notice, subscriptionId: SUBSCRIPTION_ID })?.data.subscription_id).toBe(SUBSCRIPTION_ID);
    // A notice about no subscription says so.
    expect(eventOfNotice({ ...notice, link: `/subscriptions/${SUBSCRIPTION_ID}` } as never)?.data.subscription_id).toBeNull();
  });
});

describe('webhook events of a resize', () => {
  const entry = {
    clusterId: 'c1',
    clusterName: 'Sales',
    accountId: 'acc',
    subscriptionId: SUBSCRIPTION_ID,
    description: 'Sales runs L × 4: its query engines are in place.',
    at: new Date('2026-11-29T03:00:00.000Z'),
    shape: { size: 'L', queryEngines: 4 },
  };

  it('sends cluster.resized once an online cluster runs its new shape, and not when the resize is only asked for', () => {
    const events = eventsOfClusterAudit({ ...entry, event: 'CLUSTER_RESIZED', status: 'ONLINE' });
    expect(events).toEqual([
      {
        accountId: 'acc',
        type: 'cluster.resized',
        key: 'cluster:c1:CLUSTER_RESIZED:2026-11-29T03:00:00.000Z',
        data: {
          cluster_id: 'c1',
          cluster_name: 'Sales',
          subscription_id: SUBSCRIPTION_ID,
          status: 'ONLINE',
          size: 'L',
          query_engines: 4,
          message: entry.description,
        },
      },
    ]);
    expect(eventsOfClusterAudit({ ...entry, event: 'CLUSTER_RESIZE_REQUESTED', status: 'ONLINE' })).toEqual([]);
  });

  it('sends cluster.resized as an offline cluster’s new shape is saved', () => {
    const [event] = eventsOfClusterAudit({ ...entry, event: 'CLUSTER_RESIZE_REQUESTED', status: 'OFFLINE' });
    expect(event).toMatchObject({ type: 'cluster.resized', data: { status: 'OFFLINE', size: 'L', query_engines: 4 } });
  });
});
