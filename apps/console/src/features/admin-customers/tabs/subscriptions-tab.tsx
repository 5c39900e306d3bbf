import { useState } from 'react';
import { Button, Group, Table, Text } from '@mantine/core';
import { ADMIN_MESSAGES, SUBSCRIPTION_STATUS_LABELS, type Subscription } from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { formatUsd } from '../../../lib/format';
import { formatDateTime } from '../../../lib/dates';
import { AdminAddFundsDialog } from '../add-funds-dialog';
import { useAdminPages, useHeaderFollows } from '../api/customer-detail';
import { customerKeys } from '../api/keys';
import { Permission, usePermission } from '../permission';
import { PagedTable } from './paged-table';

/** The customer's subscriptions with their balances and the staff's Add Funds (Subscriptions tab). */
export function SubscriptionsTab({
  userId,
  onViewTransactions,
}: {
  userId: string;
  onViewTransactions?: (subscriptionId: string) => void;
}) {
  const table = usePermission('customer_subscription_table');
  const balance = usePermission('customer_subscription_balance');
  const [adding, setAdding] = useState<Subscription | null>(null);
  const pages = useAdminPages(
    customerKeys.tab(userId, 'subscriptions'),
    (page, size, signal) => api.get(`/api/admin/view-subscriptions/${userId}`, { query: { page, size }, signal }),
    table.visible,
  );
  useHeaderFollows(userId, pages.query.dataUpdatedAt);
  if (!table.visible) return null;

  return (
    <Permission name="customer_subscription_table">
      <PagedTable
        pages={pages}
        label="Subscriptions"
        empty={ADMIN_MESSAGES.noSubscriptions}
        head={
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Status</Table.Th>
            {balance.visible && <Table.Th>Balance</Table.Th>}
            <Table.Th>Clusters</Table.Th>
            <Table.Th>Subscribed by</Table.Th>
            <Table.Th>Subscribed on</Table.Th>
            <Table.Th>Actions</Table.Th>
          </Table.Tr>
        }
        row={(subscription) => (
          <Table.Tr key={subscription.subscription_id}>
            <Table.Td>{subscription.subscription_name}</Table.Td>
            <Table.Td>{SUBSCRIPTION_STATUS_LABELS[subscription.status] ?? subscription.status}</Table.Td>
            {balance.visible && (
              <Table.Td>
                <Text fz="sm" c={balance.disabled ? 'dimmed' : undefined}>
                  {formatUsd(subscription.total_amount)}
                </Text>
              </Table.Td>
            )}
            <Table.Td>{subscription.clusters.length}</Table.Td>
            <Table.Td>{subscription.subscribed_by_email_id}</Table.Td>
            <Table.Td>{formatDateTime(subscription.created_at)}</Table.Td>
            <Table.Td>
              <Group gap="xs" wrap="nowrap">
                <Permission name="customer_subscription_view_details">
                  {({ disabled }) => (
                    <Button
                      size="compact-sm"
                      variant="default"
                      disabled={disabled}
                      onClick={() => onViewTransactions?.(subscription.subscription_id)}
                    >
                      View Details
                    </Button>
                  )}
                </Permission>
                <Permission name="customer_subscription_add_funds">
                  {({ disabled }) => (
                    <Button size="compact-sm" disabled={disabled} onClick={() => setAdding(subscription)}>
                      Add Funds
                    </Button>
                  )}
                </Permission>
              </Group>
            </Table.Td>
          </Table.Tr>
        )}
      />
      <AdminAddFundsDialog userId={userId} subscription={adding} onClose={() => setAdding(null)} />
    </Permission>
  );
}
