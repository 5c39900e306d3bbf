/** Query keys of the staff's customer screens. */
export const customerKeys = {
  all: ['admin', 'customers'] as const,
  /** Every page loaded so far of one search (empty: all customers), as one infinite query. */
  list: (search = '') => [...customerKeys.all, { search }] as const,
  /** Everything about one customer: refreshed as a whole after an approved action. */
  customer: (userId: string) => ['admin', 'customer', userId] as const,
  detail: (userId: string) => [...customerKeys.customer(userId), 'detail'] as const,
  tab: (userId: string, tab: string, ...rest: string[]) => [...customerKeys.customer(userId), tab, ...rest] as const,
  approvals: () => ['admin', 'approvals'] as const,
  /** What the signed-in staff member asked for that still waits (under approvals: refreshed with them). */
  myRequests: () => [...customerKeys.approvals(), 'mine'] as const,
};
