import { MESSAGES } from '@kumo/contract';
import { useNavigate } from 'react-router';
import { Button } from '@mantine/core';
import { IconLock, IconLogout } from '../../components/icons';
import { PublicLayout } from '../../components/public-layout';
import { getSession } from '../../lib/session';
import { signInPath, signOut } from '../../lib/sign-out';
import { StatusMessage } from './status-message';

/** /unauthorized-access and /admin/unauthorized-access. */
export function UnauthorizedPage() {
  const navigate = useNavigate();

  const logout = async () => {
    const target = signInPath(getSession().user?.role);
    await signOut();
    void navigate(target, { replace: true });
  };

  return (
    <PublicLayout>
      <StatusMessage
        icon={<IconLock size={28} />}
        title={MESSAGES.unauthorizedTitle}
        action={
          <Button leftSection={<IconLogout />} onClick={() => void logout()}>
            Logout
          </Button>
        }
      >
        Access to this page is denied. If you believe you should have access, please contact your administrator.
      </StatusMessage>
    </PublicLayout>
  );
}
