import { useState } from 'react';
import { ActionIcon, Avatar, Badge, Card, EmptyState, Group, Menu, SimpleGrid, Stack, Tabs, Text, Title } from '@mantine/core';
import { ROLE_LABELS, type AccountUser, type UserDetail, MESSAGES } from '@kumo/contract';
import { IconDots, IconTrash, IconUsers } from '../../components/icons';
import { initials } from '../../lib/format';
import { formatDateTime } from '../../lib/dates';
import { useReadOnlyView } from '../../lib/read-only-view';
import { DeleteUserDialog } from './delete-user-dialog';
import { DetailField } from '../../components/detail-field';
import { WideTextTooltip } from '../../components/wide-text-tooltip';

/** Spec section 5: an account owner and the signed-in person themselves cannot be removed. */
export function canDeleteUser(user: AccountUser, me: Pick<UserDetail, 'userId' | 'emailId'>): boolean {
  if (user.role === 'ACCOUNT_OWNER') return false;
  return user.user_id !== me.userId && user.email_id.toLowerCase() !== me.emailId.toLowerCase();
}

interface UserDetailsProps {
  user: AccountUser | undefined;
  me: UserDetail;
  onDeleted: () => void;
}

export function UserDetails({ user, me, onDeleted }: UserDetailsProps) {
  const [confirming, setConfirming] = useState(false);
  // A staff member's view offers no Delete: the server would refuse it (READ_ONLY_VIEW).
  const readOnly = useReadOnlyView();

  if (!user) {
    return (
      <Card>
        <EmptyState variant="light" icon={<IconUsers size={24} />} title={MESSAGES.userDetailsUnavailable} py={64} />
      </Card>
    );
  }

  return (
    <Card>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="md">
        <Group gap="md" wrap="nowrap" miw={0}>
          <Avatar color="indigo" radius="xl" size={56}>
            {initials(user.user_name)}
          </Avatar>
          <Stack gap={4} miw={0}>
            <Title order={2} fz="xl" style={{ overflowWrap: 'anywhere' }}>
              {user.user_name}
            </Title>
            <Text c="dimmed" fz="sm" truncate="end">
              {user.email_id}
            </Text>
          </Stack>
        </Group>
        {canDeleteUser(user, me) && !readOnly && (
          <Menu position="bottom-end" shadow="md" width={180}>
            <Menu.Target>
              <ActionIcon variant="subtle" color="gray" size="lg" aria-label={`More actions for ${user.user_name}`}>
                <IconDots size={20} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => setConfirming(true)}>
                Delete
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        )}
      </Group>

      <SimpleGrid cols={{ base: 1, sm: 2 }} mt="lg" spacing="md">
        <DetailField label="Role">
          <Badge variant="light" color={user.role === 'ACCOUNT_OWNER' ? 'indigo' : user.role === 'ACCOUNT_ADMIN' ? 'teal' : 'gray'}>
            {ROLE_LABELS[user.role]}
          </Badge>
        </DetailField>
        <DetailField label="Subscriptions">
          <Subscriptions user={user} />
        </DetailField>
      </SimpleGrid>

      <Tabs defaultValue="overview" mt="xl">
        <Tabs.List>
          <Tabs.Tab value="overview">Overview</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="overview" pt="md">
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
            <DetailField label="E-mail">
              {/* An e-mail address never breaks mid-word: an ellipsis, and the whole address in a tooltip. */}
              <WideTextTooltip text={user.email_id} fz="sm" />
            </DetailField>
            <DetailField label="User ID">
              <Text fz="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                {user.user_id}
              </Text>
            </DetailField>
            <DetailField label="Added on">
              <Text fz="sm">{formatDateTime(user.added_on)}</Text>
            </DetailField>
          </SimpleGrid>
        </Tabs.Panel>
      </Tabs>

      <DeleteUserDialog
        user={confirming ? user : null}
        onClose={() => setConfirming(false)}
        onDeleted={() => {
          setConfirming(false);
          onDeleted();
        }}
      />
    </Card>
  );
}

/** Cluster Members use the subscriptions they were given; owners and admins use them all. */
function Subscriptions({ user }: { user: AccountUser }) {
  if (user.subscription.length > 0) {
    return (
      <Group gap={6}>
        {user.subscription.map((name) => (
          <Badge key={name} variant="outline" color="gray" tt="none">
            {name}
          </Badge>
        ))}
      </Group>
    );
  }
  return (
    <Text fz="sm" c={user.role === 'CLUSTER_MEMBER' ? 'dimmed' : undefined}>
      {user.role === 'CLUSTER_MEMBER' ? 'None' : 'All subscriptions'}
    </Text>
  );
}
