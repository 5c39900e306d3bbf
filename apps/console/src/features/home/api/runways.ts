import { queryOptions } from '@tanstack/react-query';
import { useQuery } from '../../../lib/use-query';
import { api } from '../../../lib/api-client';

/** Each subscription's hourly rate and runway this month, by subscription id (the cost overview's figures). */
export const runwaysQuery = queryOptions({
  queryKey: ['home', 'runways'],
  queryFn: ({ signal }) => api.get('/api/subscription/consumption/overview', { signal }),
});

export function useRunways(enabled: boolean) {
  return useQuery({
    ...runwaysQuery,
    select: (rows) => new Map(rows.map((row) => [row.subscription_id, row])),
    enabled,
  });
}
