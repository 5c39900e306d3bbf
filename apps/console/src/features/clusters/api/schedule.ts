import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useQuery } from '../../../lib/use-query';
import type { PutScheduleRequest, ScheduleResponse } from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { clusterKeys } from './keys';

export function fetchSchedule(deploymentId: string, signal?: AbortSignal): Promise<ScheduleResponse> {
  return api.get(`/api/cluster/schedule/${encodeURIComponent(deploymentId)}`, { signal });
}

export function saveSchedule(deploymentId: string, request: PutScheduleRequest): Promise<ScheduleResponse> {
  return api.put(`/api/cluster/schedule/${encodeURIComponent(deploymentId)}`, request);
}

/** The cluster's weekly start/stop schedule, in the time zone it was saved in. */
export const scheduleQuery = (deploymentId: string) =>
  queryOptions({ queryKey: clusterKeys.schedule(deploymentId), queryFn: ({ signal }) => fetchSchedule(deploymentId, signal) });

export function useSchedule(deploymentId: string) {
  return useQuery(scheduleQuery(deploymentId));
}

/** Saving writes an audit entry too, so the cluster's log refreshes with the schedule. */
export function useSaveSchedule(deploymentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: PutScheduleRequest) => saveSchedule(deploymentId, request),
    onSuccess: async (saved) => {
      queryClient.setQueryData(clusterKeys.schedule(deploymentId), saved);
      await queryClient.invalidateQueries({ queryKey: clusterKeys.auditLogs(deploymentId) });
    },
  });
}
