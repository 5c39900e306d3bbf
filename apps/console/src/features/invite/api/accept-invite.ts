import { MESSAGES, type AuthenticateResponse, type UserDetail } from '@kumo/contract';
import { apiRequest, tokensFrom } from '../../../lib/api-client';
import { ApiError } from '../../../lib/api-error';
import { clearSession, saveTokens } from '../../../lib/session';
import { fetchUserDetail } from '../../../lib/api/user-detail';

export interface AcceptedInvitation {
  user: UserDetail;
  signUp: boolean;
}

/**
 * Accepts the invitation in the link: the answer signs the invited person in (tokens in the response
 * headers, as after a login), then their details are loaded and stored.
 */
export async function acceptInvitation(token: string): Promise<AcceptedInvitation> {
  // Whoever was signed in on this browser is not necessarily the invited person.
  clearSession();
  const { data, headers } = await apiRequest<AuthenticateResponse>('/api/user/invite/accept', { method: 'POST', body: { token } });
  const tokens = tokensFrom(headers);
  if (!tokens) throw new ApiError(MESSAGES.somethingWentWrong);
  saveTokens(tokens.jwtToken, tokens.refreshToken);
  try {
    // The one user-detail fetcher: it also stores the user.
    const user = await fetchUserDetail();
    return { user, signUp: data.sign_up };
  } catch (error) {
    clearSession();
    throw error;
  }
}
