/** Query keys of the reports page. */
export const reportKeys = {
  all: ['reports'] as const,
  url: () => [...reportKeys.all, 'url'] as const,
};
