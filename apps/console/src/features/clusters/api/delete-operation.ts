import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AuthenticateOperationRequest, CreateOperationResponse, OperationResult, OperationStatusResponse } from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { clusterKeys } from './keys';

/** Asks for a cluster's deletion; the answer names the operation the approver's OTP will confirm. */
export function requestClusterDeletion(deploymentId: string): Promise<CreateOperationResponse> {
  return api.post('/api/user/operation', {
    action_name: 'customer_delete_cluster',
    action_payload: { deployment_id: deploymentId },
  });
}

export function authenticateOperation(request: AuthenticateOperationRequest): Promise<OperationResult> {
  return api.post('/api/user/operation/authenticate', request);
}

export function resendOperationOtp(operationId: string): Promise<OperationResult> {
  return api.post('/api/user/operation/resend-otp', { operation_id: operationId });
}

export function fetchOperationStatus(operationId: string, signal?: AbortSignal): Promise<OperationStatusResponse> {
  return api.get(`/api/cluster/operation/status/${encodeURIComponent(operationId)}`, { signal });
}

export function useRequestClusterDeletion() {
  return useMutation({ mutationFn: requestClusterDeletion });
}

export function useResendOperationOtp() {
  return useMutation({ mutationFn: resendOperationOtp });
}

/**
 * The approver's OTP: once accepted the deletion has started. The operation's status says where the
 * cluster stands now, and the list and the cluster's readings refresh so its polling begins.
 */
export function useAuthenticateOperation(deploymentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (request: AuthenticateOperationRequest) => {
      const result = await authenticateOperation(request);
      const status = await fetchOperationStatus(request.operation_id);
      queryClient.setQueryData(clusterKeys.operationStatus(request.operation_id), status);
      return result;
    },
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: clusterKeys.view() }),
        queryClient.invalidateQueries({ queryKey: clusterKeys.cluster(deploymentId) }),
      ]),
  });
}
