/** Query keys of the money screens; mutations invalidate exactly what they change. */
export const subscriptionKeys = {
  all: ['subscriptions'] as const,
  list: () => [...subscriptionKeys.all, 'list'] as const,
  details: (subscriptionId: string) => [...subscriptionKeys.all, 'details', subscriptionId] as const,
  transactions: (subscriptionId: string) => [...subscriptionKeys.all, 'transactions', subscriptionId] as const,
  paymentStatus: (sessionId: string) => [...subscriptionKeys.all, 'payment-status', sessionId] as const,
};
