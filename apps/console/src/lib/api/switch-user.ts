import { useMutation, useQueryClient } from '@tanstack/react-query';
import { MESSAGES, type ResponseOf } from '@kumo/contract';
import { api, apiRequest, tokensFrom } from '../api-client';
import { ApiError } from '../api-error';
import { endSession, enterCustomerView, inCustomerView } from '../session';

type Started = ResponseOf<'POST', `/api/admin/switch-user/${string}`>;

/**
 * A staff member opens the customer's console, read-only (userSwitched): the view's tokens come in the response
 * headers and the staff member's own session waits aside until the view ends.
 */
export async function startUserSwitch(userId: string): Promise<Started> {
  const { data, headers } = await apiRequest<Started>(`/api/admin/switch-user/${encodeURIComponent(userId)}`, { method: 'POST', body: {} });
  const tokens = tokensFrom(headers);
  if (!tokens) throw new ApiError(MESSAGES.somethingWentWrong);
  enterCustomerView(tokens.jwtToken, tokens.refreshToken);
  return data;
}

/** Ends the view on the server (the customer's audit trail records it) and returns to the staff member's own session. */
export async function endUserSwitch(): Promise<void> {
  try {
    await api.post('/api/user/switch-user/end');
  } catch {
    // The view ends here regardless: it may have run out already.
  } finally {
    if (inCustomerView()) endSession();
  }
}

/** Nothing loaded for one identity may show for the other: the cache is emptied both ways. */
export function useStartUserSwitch() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: startUserSwitch, onSuccess: () => queryClient.clear() });
}

export function useEndUserSwitch() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: endUserSwitch, onSettled: () => queryClient.clear() });
}
