import type { AdminActionRequest, AdminAuthenticateRequest } from '@kumo/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useQuery } from '../../../lib/use-query';
import { api } from '../../../lib/api-client';
import { customerKeys } from './keys';

/** Asks for a four-eyes action: the server freezes the payload and mails the approvers an OTP. */
export function useRequestAdminAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (order: AdminActionRequest) => api.post('/api/admin/action', order),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: customerKeys.myRequests() }),
  });
}

/** What I asked for that still waits for an approver: the way back to an OTP dialog that was closed. */
export function useMyAdminRequests() {
  return useQuery({
    queryKey: customerKeys.myRequests(),
    queryFn: ({ signal }) => api.get('/api/admin/action/mine', { signal }),
  });
}

/** Withdraws a request that waits: its OTPs stop working. */
export function useCancelAdminAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (operationId: string) => api.post('/api/admin/action/cancel', { operation_id: operationId }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: customerKeys.approvals() }),
  });
}

/** Completes an action with the OTP an approver read out; everything shown of the customer is then reloaded. */
export function useAuthenticateAdminAction(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AdminAuthenticateRequest) => api.post('/api/admin/action/authenticate', body),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: customerKeys.customer(userId) }),
        queryClient.invalidateQueries({ queryKey: customerKeys.approvals() }),
      ]),
  });
}

export function useResendAdminActionOtp() {
  return useMutation({ mutationFn: (operationId: string) => api.post('/api/admin/action/resend-otp', { operation_id: operationId }) });
}
