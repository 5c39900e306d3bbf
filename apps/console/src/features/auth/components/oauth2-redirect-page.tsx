import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Center, Loader, Stack, Text } from '@mantine/core';
import { MESSAGES, UI_TIMING, ssoHandOffSchema } from '@kumo/contract';
import { clearSession, getSession, saveTokens } from '../../../lib/session';

const ADMIN_HOME = '/admin/customers';
const ADMIN_LOGIN = '/admin/login';

/** The token query value is URL-safe base64 of the contract's hand-off JSON (ssoHandOffSchema). */
function decodeTokens(token: string | null): { jwtToken: string; refreshToken: string } | null {
  if (!token) return null;
  try {
    const base64 = token
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(token.length / 4) * 4, '=');
    const parsed = ssoHandOffSchema.safeParse(JSON.parse(atob(base64)));
    return parsed.success ? { jwtToken: parsed.data.data.jwt_token, refreshToken: parsed.data.data.refresh_token } : null;
  } catch {
    return null;
  }
}

/** /oauth2/redirect: where single sign-on hands the staff member's session back to the console. */
export function OAuth2RedirectPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();

  useEffect(() => {
    const sessionExpired = params.get('isSessionExpired') === 'true';
    if (getSession().jwtToken && !sessionExpired) {
      void navigate(ADMIN_HOME, { replace: true });
      return;
    }
    const tokens = decodeTokens(params.get('token'));
    if (!tokens) {
      void navigate(ADMIN_LOGIN, { replace: true });
      return;
    }
    const opener = window.opener as Window | null;
    if (sessionExpired && opener && !opener.closed) {
      saveTokens(tokens.jwtToken, tokens.refreshToken);
      // Opened as a pop-up to renew an expired session: hand the tokens to the opener (this origin
      // only) and close.
      opener.postMessage(
        {
          jwt_token: tokens.jwtToken,
          refresh_token: tokens.refreshToken,
          userSwitched: params.get('isUserSwitched') === 'true',
        },
        window.location.origin,
      );
      const timer = setTimeout(() => window.close(), UI_TIMING.popupCloseDelayMs);
      return () => clearTimeout(timer);
    }
    // A new sign-in (or a renewal whose opener is gone, which would otherwise wait for a window that
    // cannot close): forget any earlier user; the admin guard loads the new one into userInfo.
    clearSession();
    saveTokens(tokens.jwtToken, tokens.refreshToken);
    void navigate(ADMIN_HOME, { replace: true });
  }, [navigate, params]);

  return (
    <Center mih="100dvh">
      <Stack align="center" gap="sm">
        <Loader />
        <Text c="dimmed">{MESSAGES.validating}</Text>
      </Stack>
    </Center>
  );
}
