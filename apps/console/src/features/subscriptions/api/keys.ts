import { subscriptionListKey } from '../../../lib/api/subscription-list';

/** Query keys of the money screens; mutations invalidate exactly what they change. */
export const subscriptionKeys = {
  all: ['subscriptions'] as const,
  /** Shared with home and clusters through lib/subscription-list.ts. */
  list: () => subscriptionListKey,
  details: (subscriptionId: string) => [...subscriptionKeys.all, 'details', subscriptionId] as const,
  /** Under details: whatever refreshes a subscription's details refreshes its outlook too. */
  outlook: (subscriptionId: string) => [...subscriptionKeys.details(subscriptionId), 'outlook'] as const,
  /** Under details, refreshed with them; a month's analysis is appended by the cost panel. */
  creditAnalysis: (subscriptionId: string) => [...subscriptionKeys.details(subscriptionId), 'credit-analysis'] as const,
  /** Under details: the month's spend it shows moves with the subscription. */
  budget: (subscriptionId: string) => [...subscriptionKeys.details(subscriptionId), 'budget'] as const,
  /** Under details: its month's top-ups, status and last attempt move with each metering run. */
  autoTopUp: (subscriptionId: string) => [...subscriptionKeys.details(subscriptionId), 'auto-top-up'] as const,
  transactions: (subscriptionId: string) => [...subscriptionKeys.all, 'transactions', subscriptionId] as const,
  /** Under transactions: one kind of entry (or all), each its own list of pages. */
  transactionsOfKind: (subscriptionId: string, kind: string | null) =>
    [...subscriptionKeys.transactions(subscriptionId), kind ?? 'ALL'] as const,
  paymentStatus: (sessionId: string) => [...subscriptionKeys.all, 'payment-status', sessionId] as const,
};
