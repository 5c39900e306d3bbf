/** Query keys of what several features share (the signed-in user, the subscription list). */
export const sharedKeys = {
  userDetail: () => ['user', 'detail'] as const,
  subscriptionList: () => ['subscriptions', 'list'] as const,
};
