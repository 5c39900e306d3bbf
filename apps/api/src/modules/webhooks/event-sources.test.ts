import { describe, expect, it } from 'vitest';
import { eventOfNotice } from './event-sources.js';

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
