import { useMutation, useQueryClient } from '@tanstack/react-query';
import { MESSAGES, type AuthenticateRequest, type AuthenticateResponse, type UserDetail } from '@kumo/contract';
import { apiRequest, tokensFrom } from '../../../lib/api-client';
import { ApiError } from '../../../lib/api-error';
import { clearSession, saveTokens } from '../../../lib/session';
import { fetchUserDetail, userDetailQueryKey } from '../../../lib/api/user-detail';

export interface SignedIn {
  user: UserDetail;
  signUp: boolean;
}

/** Verifies the OTP, stores the tokens from the response headers, then loads and stores the user. */
export async function authenticate(request: AuthenticateRequest): Promise<SignedIn> {
  const { data, headers } = await apiRequest<AuthenticateResponse>('/api/user/authenticate', {
    method: 'POST',
    body: request,
  });
  const tokens = tokensFrom(headers);
  if (!tokens) throw new ApiError(MESSAGES.somethingWentWrong);
  saveTokens(tokens.jwtToken, tokens.refreshToken);
  try {
    return { user: await fetchUserDetail(), signUp: data.sign_up };
  } catch (error) {
    clearSession();
    throw error;
  }
}

export function useAuthenticate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: authenticate,
    // The guards read the user from this query; it is fresh, so they need not fetch it again.
    onSuccess: ({ user }) => queryClient.setQueryData(userDetailQueryKey, user),
  });
}
