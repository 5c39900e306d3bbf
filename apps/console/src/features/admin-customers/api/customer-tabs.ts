import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useQuery } from '../../../lib/use-query';
import type { KmUserRole } from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { customerKeys } from './keys';

/** Polled so a request made a moment ago shows up while the approver waits on the phone. */
const APPROVALS_REFRESH_MS = 15_000;

/** The actions waiting for the signed-in staff member to approve. */
export function useApprovals() {
  return useQuery({
    queryKey: customerKeys.approvals(),
    queryFn: ({ signal }) => api.get('/api/admin/approvals', { signal }),
    refetchInterval: APPROVALS_REFRESH_MS,
  });
}

/** The customer's rate card in force (Service Rates tab). */
export function useRateCard(userId: string) {
  return useQuery({
    queryKey: customerKeys.tab(userId, 'rates'),
    queryFn: ({ signal }) => api.get(`/api/admin/current-resource-rate/${userId}`, { signal }),
  });
}

/** The nodes of one of the customer's clusters; under the customer, so an approved action refreshes it too. */
export function useNodeDetails(userId: string, deploymentId: string | undefined) {
  return useQuery({
    queryKey: customerKeys.tab(userId, 'node-details', deploymentId ?? ''),
    queryFn: ({ signal }) => api.get(`/api/admin/node-details-view/${deploymentId!}`, { query: { userId }, signal }),
    enabled: !!deploymentId,
  });
}

/** The last twelve months' costs (Cost tab). */
export function useCumulativeCost(userId: string) {
  return useQuery({
    queryKey: customerKeys.tab(userId, 'cumulative-cost'),
    queryFn: ({ signal }) => api.get('/api/admin/view/cumulative-cost-consumption', { query: { userId }, signal }),
  });
}

/** Offers or withdraws the preview release; the customer's details are read again after. */
export function usePreviewToggle(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (enable: boolean) =>
      api.post(`/api/admin/kumo-ea-version/${userId}`, undefined, { query: { action: enable ? 'ENABLE' : 'DISABLE' } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: customerKeys.detail(userId) }),
  });
}

/** Whether the provider may reach the customer's manager, read afresh on each opening of the dialog. */
export function useKmAccessCheck(userId: string, enabled: boolean) {
  return useQuery({
    queryKey: customerKeys.tab(userId, 'km-access'),
    queryFn: ({ signal }) => api.get(`/api/admin/check-km-access/${userId}`, { signal }),
    enabled,
    staleTime: 0,
  });
}

/** Saves the provider's access and the customer's manager role; everything shown of the customer is then reloaded. */
export function useSaveKmAccess(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (access: { admin_access: boolean; km_user_role: KmUserRole }) => api.post(`/api/admin/manage-km-access/${userId}`, access),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: customerKeys.customer(userId) }),
  });
}
