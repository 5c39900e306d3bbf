import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { MESSAGES } from '@kumo/contract';
import { IconKey } from '../../components/icons';
import { clearSession } from '../../lib/session';
import { abandonSession, renewSession, useSessionExpired } from '../../lib/session-expiry';
import { useResetAllQueries } from './api/reset-queries';
import { parseRenewalMessage } from './renewal-message';
import { ErrorAlert } from '../../components/error-alert';

/** The identity provider's sign-in, told to hand the new tokens back to this window. */
export const RENEWAL_SIGN_IN_PATH = '/oauth2/authorization/azure?isSessionExpired=true';
const POPUP_NAME = 'kumo-session-renewal';
const POPUP_FEATURES = 'popup=yes,width=520,height=680';

/**
 * Shown to a staff member whose session could not be refreshed: they sign in again in a pop-up and
 * the calls that were waiting carry on, instead of losing their place to the login page.
 */
export function SessionExpiredModal() {
  const expired = useSessionExpired();
  const navigate = useNavigate();
  const resetAllQueries = useResetAllQueries();
  const [popupBlocked, setPopupBlocked] = useState(false);

  useEffect(() => {
    if (!expired) return;
    const onMessage = (event: MessageEvent) => {
      // Only the console's own redirect page may hand over tokens.
      if (event.origin !== window.location.origin) return;
      const renewal = parseRenewalMessage(event.data);
      if (!renewal) return;
      setPopupBlocked(false);
      renewSession(renewal.jwtToken, renewal.refreshToken);
      if (renewal.userSwitched) {
        // Someone else signed in: nothing loaded for the previous identity applies.
        resetAllQueries();
        void navigate('/admin/customers');
      }
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [expired, navigate, resetAllQueries]);

  const signInAgain = () => {
    const popup = window.open(RENEWAL_SIGN_IN_PATH, POPUP_NAME, POPUP_FEATURES);
    setPopupBlocked(!popup);
    popup?.focus();
  };

  const signOut = () => {
    setPopupBlocked(false);
    abandonSession();
    clearSession();
    void navigate('/admin/login', { replace: true });
  };

  return (
    <Modal
      opened={expired}
      onClose={() => undefined}
      withCloseButton={false}
      closeOnClickOutside={false}
      closeOnEscape={false}
      centered
      title="Session expired"
      aria-describedby="session-expired-text"
    >
      <Stack gap="md">
        <Text id="session-expired-text">{MESSAGES.sessionExpired}</Text>
        {popupBlocked && <ErrorAlert>{MESSAGES.popupBlocked}</ErrorAlert>}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={signOut}>
            Logout
          </Button>
          <Button leftSection={<IconKey />} onClick={signInAgain} data-autofocus>
            Sign in again
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
