/** How a subscription is shown on the wire: dollars, ISO dates and the specification's field names. */
import { centsToAmount, type Subscription } from '@kumo/contract';
import type { SubscriptionWithMonth } from './subscriptions.service.js';

/** A subscription with the month's spend and forecast, as the list, the details and the staff's customer view answer it. */
export function toSubscriptionWire(subscription: SubscriptionWithMonth): Subscription {
  return {
    subscription_id: subscription.id,
    subscription_name: subscription.name,
    subscription_type: subscription.type,
    remark: subscription.remark,
    status: subscription.status,
    total_amount: centsToAmount(subscription.balanceCents),
    balance: centsToAmount(subscription.balanceCents),
    credits: centsToAmount(subscription.freeCreditsCents),
    credits_expire_at: subscription.creditsExpireAt?.toISOString() ?? null,
    consumed_amount: centsToAmount(subscription.consumedCents),
    forecasted_amount: centsToAmount(subscription.forecastCents),
    active_cluster_count: subscription.activeClusterCount,
    clusters: subscription.clusters.map((cluster) => ({ deployment_id: cluster.id, cluster_name: cluster.name, status: cluster.status })),
    created_by: subscription.createdByName,
    subscribed_by_email_id: subscription.createdByEmail,
    created_at: subscription.createdAt.toISOString(),
  };
}
