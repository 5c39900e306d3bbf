/**
 * What the /oauth2/redirect page in the sign-in pop-up posts to this window (see
 * features/auth/components/oauth2-redirect-page.tsx): the new token pair and whether the
 * identity provider signed in someone else.
 */
export interface RenewalMessage {
  jwtToken: string;
  refreshToken: string;
  userSwitched: boolean;
}

export function parseRenewalMessage(data: unknown): RenewalMessage | null {
  if (typeof data !== 'object' || data === null) return null;
  const { jwt_token, refresh_token, userSwitched } = data as Record<string, unknown>;
  if (typeof jwt_token !== 'string' || !jwt_token || typeof refresh_token !== 'string') return null;
  return { jwtToken: jwt_token, refreshToken: refresh_token, userSwitched: userSwitched === true };
}
