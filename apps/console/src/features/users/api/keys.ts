/** Query keys of the users screens; mutations invalidate exactly what they change. */
export const usersKeys = {
  all: ['account'] as const,
  list: () => [...usersKeys.all, 'users'] as const,
  subscriptionOptions: () => [...usersKeys.all, 'users-subscriptions'] as const,
  pendingInvitations: () => [...usersKeys.all, 'invitations'] as const,
  auditLogs: (startDate: string) => [...usersKeys.all, 'audit-logs', startDate] as const,
  apiTokens: () => [...usersKeys.all, 'api-tokens'] as const,
  webhooks: () => [...usersKeys.all, 'webhooks'] as const,
};
