import { useState } from 'react';
import { Button, Center, Group, List, Loader, NativeSelect, Stack, Table, Text } from '@mantine/core';
import {
  CLUSTER_MESSAGES,
  MANAGER_ACCESS_DESCRIPTIONS,
  MANAGER_ACCESS_LABELS,
  MANAGER_ACCESS_LEVELS,
  ROLE_LABELS,
  keepsAnAdministrator,
  type ManagerAccessLevel,
  type ManagerAccessResponse,
} from '@kumo/contract';
import { READ_ONLY_VIEW_REASON, useReadOnlyView } from '../../lib/read-only-view';
import { useManagerAccess, useSaveManagerAccess } from './api/manager-access';
import { notifySuccess } from '../../components/notify';
import { ErrorAlert } from '../../components/error-alert';

const LEVEL_OPTIONS = MANAGER_ACCESS_LEVELS.map((level) => ({ value: level, label: MANAGER_ACCESS_LABELS[level] }));

/** Manager Access tab (spec sections 5 and 6): each person's level in this cluster's Kumo Manager. */
export function ManagerAccessTab({ deploymentId }: { deploymentId: string }) {
  const query = useManagerAccess(deploymentId);
  if (query.isPending)
    return (
      <Center py="md">
        <Loader size="sm" aria-label="Loading the manager access" />
      </Center>
    );
  if (query.isError) return <ErrorAlert error={query.error} />;
  // The form starts again from the levels the server holds when they change (a save), not at every read of them: a
  // read landing while someone edits keeps their edits.
  const savedLevels = query.data.users.map((user) => `${user.user_id}:${user.access_level}`).join(' ');
  return <ManagerAccessForm key={savedLevels} deploymentId={deploymentId} access={query.data} />;
}

function ManagerAccessForm({ deploymentId, access }: { deploymentId: string; access: ManagerAccessResponse }) {
  const save = useSaveManagerAccess(deploymentId);
  // A staff member's view shows the levels as they are, unchangeable, and says why.
  const readOnly = useReadOnlyView();
  const [edited, setEdited] = useState<Record<string, ManagerAccessLevel>>({});
  const changes = access.users
    .filter((user) => edited[user.user_id] && edited[user.user_id] !== user.access_level)
    .map((user) => ({ user_id: user.user_id, access_level: edited[user.user_id]! }));
  const keepsAdmin = keepsAnAdministrator(access.users, changes);

  const submit = () => save.mutate({ changes }, { onSuccess: () => notifySuccess(CLUSTER_MESSAGES.managerAccessSaved) });

  return (
    <Stack gap="sm">
      <Text fz="sm" c="dimmed">
        What each person of the account may do in this cluster&apos;s Kumo Manager. Someone must always keep administrative privileges (Full
        admin or Full kmuser).
      </Text>
      <Table.ScrollContainer minWidth={340}>
        <Table verticalSpacing="xs" aria-label="Manager access">
          <Table.Thead>
            <Table.Tr>
              {['Name', 'Role', 'Access level'].map((column) => (
                <Table.Th key={column} c="dimmed" fz="xs" tt="uppercase">
                  {column}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {access.users.map((user) => (
              <Table.Tr key={user.user_id}>
                <Table.Td>
                  <Text fz="sm">{user.user_name}</Text>
                  <Text fz="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                    {user.email_id}
                  </Text>
                </Table.Td>
                <Table.Td fz="sm">{ROLE_LABELS[user.role]}</Table.Td>
                <Table.Td>
                  <NativeSelect
                    size="xs"
                    w={140}
                    aria-label={`Access level of ${user.user_name}`}
                    data={LEVEL_OPTIONS}
                    disabled={readOnly || save.isPending}
                    value={edited[user.user_id] ?? user.access_level}
                    onChange={(event) => {
                      const level = event.currentTarget.value as ManagerAccessLevel;
                      setEdited((current) => ({ ...current, [user.user_id]: level }));
                    }}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <List size="xs" c="dimmed" spacing={2}>
        {MANAGER_ACCESS_LEVELS.map((level) => (
          <List.Item key={level}>
            <Text span fz="xs" fw={600}>
              {MANAGER_ACCESS_LABELS[level]}:
            </Text>{' '}
            {MANAGER_ACCESS_DESCRIPTIONS[level]}
          </List.Item>
        ))}
      </List>
      {!keepsAdmin && (
        <Text fz="sm" c="red" role="alert">
          {CLUSTER_MESSAGES.managerAccessOneAdmin}
        </Text>
      )}
      {save.isError && <ErrorAlert error={save.error} title={CLUSTER_MESSAGES.managerAccessFailed} />}
      {readOnly ? (
        <Text fz="sm" c="dimmed">
          {READ_ONLY_VIEW_REASON}
        </Text>
      ) : (
        <Group justify="flex-end">
          <Button onClick={submit} loading={save.isPending} disabled={changes.length === 0 || !keepsAdmin}>
            Save access
          </Button>
        </Group>
      )}
    </Stack>
  );
}
