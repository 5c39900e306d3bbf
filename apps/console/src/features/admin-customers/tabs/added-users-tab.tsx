import { Table, Text } from '@mantine/core';
import { ADMIN_MESSAGES, ROLE_LABELS } from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/dates';
import { useAdminPages } from '../api/customer-detail';
import { customerKeys } from '../api/keys';
import { PagedTable } from './paged-table';

/** The people of the customer's account (Added Users tab). */
export function AddedUsersTab({ userId }: { userId: string }) {
  const pages = useAdminPages(customerKeys.tab(userId, 'users'), (page, size, signal) =>
    api.get(`/api/admin/view-users/${userId}`, { query: { page, size }, signal }),
  );
  return (
    <PagedTable
      pages={pages}
      label="Added users"
      empty={ADMIN_MESSAGES.noAddedUsers}
      head={
        <Table.Tr>
          <Table.Th>Name</Table.Th>
          <Table.Th>E-mail</Table.Th>
          <Table.Th>Role</Table.Th>
          <Table.Th>Subscriptions</Table.Th>
          <Table.Th>Added on</Table.Th>
        </Table.Tr>
      }
      row={(user) => (
        <Table.Tr key={user.user_id}>
          <Table.Td>{user.user_name}</Table.Td>
          <Table.Td>{user.email_id}</Table.Td>
          <Table.Td>{ROLE_LABELS[user.role] ?? user.role}</Table.Td>
          <Table.Td>
            <Text fz="sm">{user.subscription.length ? user.subscription.join(', ') : '--'}</Text>
          </Table.Td>
          <Table.Td>{formatDateTime(user.added_on)}</Table.Td>
        </Table.Tr>
      )}
    />
  );
}
