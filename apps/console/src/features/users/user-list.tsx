import { ListLink } from '../../components/list-link';
import { Avatar, Box, Button, Card, Center, EmptyState, Group, Loader, Text } from '@mantine/core';
import scrollList from '../../components/scroll-list.module.css';
import { MESSAGES, ROLE_LABELS, type AccountUser } from '@kumo/contract';
import { IconPlus, IconUsers } from '../../components/icons';
import { initials } from '../../lib/format';
import { useReadOnlyView } from '../../lib/read-only-view';
import type { useAccountUsers } from './api/account-users';
import { ErrorAlert } from '../../components/error-alert';

interface UserListProps {
  query: ReturnType<typeof useAccountUsers>;
  selectedId: string | undefined;
  onAdd: () => void;
}

/** The account's people, each linking to their details; the Add button opens the invitation dialog. */
export function UserList({ query, selectedId, onAdd }: UserListProps) {
  const users: AccountUser[] = query.data ?? [];
  // A staff member's view offers no Add: the server would refuse it (READ_ONLY_VIEW).
  const readOnly = useReadOnlyView();
  return (
    <Card p="xs">
      <Group justify="space-between" px="sm" pt="xs" pb="sm" wrap="nowrap">
        <Text fw={600}>All users</Text>
        {!readOnly && (
          <Button size="xs" leftSection={<IconPlus size={16} />} onClick={onAdd}>
            Add
          </Button>
        )}
      </Group>
      {query.isPending ? (
        <Center py="xl">
          <Loader size="sm" aria-label="Loading users" />
        </Center>
      ) : query.isError ? (
        <ErrorAlert error={query.error} mx="sm" mb="sm" />
      ) : users.length === 0 ? (
        <EmptyState size="sm" icon={<IconUsers size={22} />} title={MESSAGES.noUserAdded} description={MESSAGES.addUserHint} py="xl" />
      ) : (
        // The browser's own scrolling, vertical only: long names and e-mail addresses end in an ellipsis.
        <Box mah="calc(100dvh - 280px)" className={scrollList.list}>
          <nav aria-label="Users">
            {users.map((user) => (
              <ListLink
                key={user.user_id}
                to={`/users/${user.user_id}`}
                label={user.user_name}
                // The role has a line of its own, so a long e-mail address never pushes it out of sight.
                description={[user.email_id, ROLE_LABELS[user.role]]}
                leftSection={
                  <Avatar color="indigo" radius="xl" size={32}>
                    {initials(user.user_name)}
                  </Avatar>
                }
                active={user.user_id === selectedId}
              />
            ))}
          </nav>
        </Box>
      )}
    </Card>
  );
}
