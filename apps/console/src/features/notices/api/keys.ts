/** Query keys of the bell: the latest notices (with the unread count) sit under `all`, so marking read refreshes them. */
export const noticeKeys = {
  all: ['notifications'] as const,
  latest: (size: number) => [...noticeKeys.all, 'latest', { size }] as const,
};
