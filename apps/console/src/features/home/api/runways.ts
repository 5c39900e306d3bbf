import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** Each subscription's hourly rate and runway this month, by subscription id (the cost overview's figures). */
export function useRunways(enabled: boolean) {
  return useQuery({
    queryKey: ['home', 'runways'],
    queryFn: ({ signal }) => api.get('/api/subscription/consumption/overview', { signal }),
    select: (rows) => new Map(rows.map((row) => [row.subscription_id, row])),
    enabled,
  });
}
