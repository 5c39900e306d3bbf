/** The list query is shared with other features (lib/subscription-list.ts): one fetcher, one cache entry. */
export {
  fetchSubscriptionList as fetchSubscriptions,
  subscriptionListQuery as subscriptionsQuery,
  useSubscriptionList as useSubscriptions,
} from '../../../lib/api/subscription-list';
