import { useNavigate } from 'react-router';
import { Button, Group, Text } from '@mantine/core';
import type { UserDetail } from '@kumo/contract';
import { IconEye } from '../../components/icons';
import { useEndUserSwitch } from '../../lib/api/switch-user';

/** Tall enough for the whole sentence: one line on a wide screen, up to three on a phone. */
export const USER_SWITCHED_BANNER_HEIGHT = { base: 72, sm: 52 };

/**
 * Shown on every page while a staff member views a customer's console (userSwitched): whose console, as whom,
 * read-only, and the way back. Fixed colours, so it reads the same in both schemes.
 */
export function UserSwitchedBanner({ user }: { user: UserDetail }) {
  const navigate = useNavigate();
  const end = useEndUserSwitch();
  if (!user.userSwitched) return null;

  const endView = () => end.mutateAsync().finally(() => void navigate('/admin/customers', { replace: true }));

  return (
    <Group h={USER_SWITCHED_BANNER_HEIGHT} px="md" gap="sm" justify="space-between" wrap="nowrap" bg="#fff3bf" c="#212529">
      <Group gap="xs" wrap="nowrap" miw={0}>
        <IconEye style={{ flexShrink: 0 }} />
        <Text fz={{ base: 'xs', sm: 'sm' }} fw={600}>
          You are viewing {user.userName}&apos;s console as {user.userSwitched.userName}. Read-only.
        </Text>
      </Group>
      <Button size="compact-sm" color="dark" style={{ flexShrink: 0 }} onClick={() => void endView()} loading={end.isPending}>
        End view
      </Button>
    </Group>
  );
}
