import type { ReactNode } from 'react';
import { MESSAGES, ROLE_LABELS, canUseCustomerArea, isSystemRole, type Account, type UserDetail } from '@kumo/contract';
import { useNavigate } from 'react-router';
import { Button, Stack, Text } from '@mantine/core';
import { IconArrowRight, IconLock, IconLogout } from '../../components/icons';
import { PublicLayout } from '../../components/public-layout';
import { useSwitchAccount } from '../../lib/api/switch-account';
import { useSession } from '../../lib/session';
import { signInPath, signOut } from '../../lib/sign-out';
import { StatusMessage } from './status-message';
import { ErrorAlert } from '../../components/error-alert';

/** /unauthorized-access and /admin/unauthorized-access (both behind SignedInGuard). */
export function UnauthorizedPage() {
  const navigate = useNavigate();
  const { user } = useSession();

  const logout = async () => {
    const target = signInPath(user?.role);
    await signOut();
    void navigate(target, { replace: true });
  };

  const logoutButton = (
    <Button leftSection={<IconLogout />} variant={user?.role === 'CLUSTER_MEMBER' ? 'default' : 'filled'} onClick={() => void logout()}>
      Logout
    </Button>
  );

  return (
    <PublicLayout>
      <StatusMessage
        icon={<IconLock size={28} />}
        title={MESSAGES.unauthorizedTitle}
        action={
          user?.role === 'CLUSTER_MEMBER' ? (
            <ClusterMemberHelp user={user} logout={logoutButton} />
          ) : user && isSystemRole(user.role) ? (
            <Stack gap="sm" align="center">
              <Button rightSection={<IconArrowRight />} onClick={() => void navigate('/admin/customers', { replace: true })}>
                Go to Customers
              </Button>
              {logoutButton}
            </Stack>
          ) : (
            logoutButton
          )
        }
      >
        Access to this page is denied. If you believe you should have access, please contact your administrator.
      </StatusMessage>
    </PublicLayout>
  );
}

/** Why a Cluster Member is here, where their work is (the clusters' own tools), and the ways out: another account of theirs, the owner, or logging out. */
function ClusterMemberHelp({ user, logout }: { user: UserDetail; logout: ReactNode }) {
  const navigate = useNavigate();
  const switchCall = useSwitchAccount();
  const active = user.accounts.find((account) => account.logged_in);
  const ownerEmail = active?.account_owner_email_id ?? user.ownerEmailId;
  // Accounts where this person may use the console (staff roles are never customer account members).
  const usable = user.accounts.filter((account) => !account.logged_in && canUseCustomerArea(account.role));

  const switchTo = (account: Account) =>
    switchCall
      .mutateAsync(account.account_id)
      .then(({ user: switched }) => void navigate(isSystemRole(switched.role) ? '/admin/customers' : '/', { replace: true }))
      .catch(() => undefined);

  return (
    <Stack gap="md" w="100%" align="center">
      <Text>{MESSAGES.clusterMemberConsole}</Text>
      <Text>{MESSAGES.clusterMemberTools}</Text>
      <Text>
        {ownerEmail ? (
          <>
            If you need to manage this account, ask its owner,{' '}
            <Text span fw={600} style={{ overflowWrap: 'anywhere' }}>
              {ownerEmail}
            </Text>
            , to make you an Account Admin.
          </>
        ) : (
          'If you need to manage this account, ask its owner to make you an Account Admin.'
        )}
      </Text>
      {usable.length > 0 && (
        <Stack gap="xs" w="100%" maw={420}>
          <Text fw={600}>Continue in another of your accounts</Text>
          {usable.map((account) => (
            <Button
              key={account.account_id}
              variant="light"
              justify="space-between"
              rightSection={<IconArrowRight size={16} />}
              loading={switchCall.isPending && switchCall.variables === account.account_id}
              disabled={switchCall.isPending}
              onClick={() => void switchTo(account)}
              // Long addresses wrap instead of hiding the role at the end.
              h="auto"
              py={8}
              styles={{ label: { whiteSpace: 'normal', overflowWrap: 'anywhere', textAlign: 'left' } }}
            >
              {account.account_owner_email_id} · {ROLE_LABELS[account.role]}
            </Button>
          ))}
        </Stack>
      )}
      {switchCall.isError && <ErrorAlert error={switchCall.error} />}
      {logout}
    </Stack>
  );
}
