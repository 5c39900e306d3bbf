import { useMutation, useQueryClient } from '@tanstack/react-query';
import { MESSAGES, type SwitchAccountRequest, type UserDetail } from '@kumo/contract';
import { apiRequest, tokensFrom } from '../../../lib/api-client';
import { ApiError } from '../../../lib/api-error';
import { clearSession, getSession, saveTokens } from '../../../lib/session';
import { fetchUserDetail } from './user-detail';

// Spec section 8: these answers end the session, each with its own text.
const SESSION_ENDING_STATUSES: Record<number, string> = {
  400: MESSAGES.refreshInvalid,
  404: MESSAGES.accountSwitchRoleMappingNotFound,
  500: MESSAGES.refreshNotFound,
};

export interface SwitchedAccount {
  user: UserDetail;
  message: string;
}

/** Moves the session to another of the user's accounts: new tokens come back in the headers. */
export async function switchAccount(accountId: string): Promise<SwitchedAccount> {
  const body: SwitchAccountRequest = { switching_account_id: accountId };
  try {
    const { data, headers } = await apiRequest<{ data?: string; message?: string }>('/api/user/switch-account', {
      method: 'POST',
      body,
      headers: { 'Refresh-Token': getSession().refreshToken ?? '' },
    });
    const tokens = tokensFrom(headers);
    if (tokens) saveTokens(tokens.jwtToken, tokens.refreshToken);
    return { user: await fetchUserDetail(), message: data.data ?? data.message ?? '' };
  } catch (error) {
    const endingMessage = error instanceof ApiError && error.status ? SESSION_ENDING_STATUSES[error.status] : undefined;
    if (endingMessage) {
      clearSession();
      throw new ApiError(endingMessage, { status: (error as ApiError).status });
    }
    throw new ApiError(MESSAGES.somethingWentWrong);
  }
}

export function useSwitchAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: switchAccount,
    // Everything cached so far belongs to the previous account.
    onSuccess: () => queryClient.resetQueries(),
  });
}
