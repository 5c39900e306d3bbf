import { useMutation, useQueryClient } from '@tanstack/react-query';
import { MESSAGES, type ResponseOf, type SwitchAccountRequest, type UserDetail } from '@kumo/contract';
import { apiRequest, tokensFrom } from '../api-client';
import { ApiError } from '../api-error';
import { clearSession, saveTokens } from '../session';
import { fetchUserDetail } from './user-detail';

export interface SwitchedAccount {
  user: UserDetail;
  message: string;
}

/**
 * Spec section 8: a 400 (the refresh token is invalid or unknown), a 404 (no role in that account) and
 * a 500 end the session, each with its own text; any other failure leaves the session as it was.
 */
function switchFailure(error: unknown): { message: string; endsSession: boolean } {
  const status = error instanceof ApiError ? error.status : undefined;
  if (status === 400) {
    const message = (error as ApiError).message === MESSAGES.refreshTokenMissing ? MESSAGES.refreshTokenMissing : MESSAGES.refreshInvalid;
    return { message, endsSession: true };
  }
  if (status === 404) return { message: MESSAGES.accountSwitchRoleMappingNotFound, endsSession: true };
  if (status === 500) return { message: MESSAGES.refreshNotFound, endsSession: true };
  return { message: MESSAGES.somethingWentWrong, endsSession: false };
}

/** Moves the session to another of the user's accounts: new tokens come back in the headers. */
export async function switchAccount(accountId: string): Promise<SwitchedAccount> {
  const body: SwitchAccountRequest = { switching_account_id: accountId };
  let message: string;
  try {
    const { data, headers } = await apiRequest<ResponseOf<'POST', '/api/user/switch-account'>>('/api/user/switch-account', {
      method: 'POST',
      body,
      withRefreshToken: true,
    });
    const tokens = tokensFrom(headers);
    if (!tokens) throw new ApiError(MESSAGES.somethingWentWrong);
    saveTokens(tokens.jwtToken, tokens.refreshToken);
    message = data.data || MESSAGES.accountSwitched;
  } catch (error) {
    const failure = switchFailure(error);
    if (failure.endsSession) clearSession();
    throw new ApiError(failure.message, { status: error instanceof ApiError ? error.status : undefined });
  }
  // The new tokens are stored: the user detail now describes the account switched to.
  return { user: await fetchUserDetail(), message };
}

export function useSwitchAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: switchAccount,
    // Everything cached so far belongs to the previous account.
    onSuccess: () => queryClient.resetQueries(),
  });
}
