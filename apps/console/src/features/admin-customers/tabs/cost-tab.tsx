import { Card, Center, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { ADMIN_MESSAGES } from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { formatUsd } from '../../../lib/format';
import { formatDateTime, formatMonth } from '../../../lib/dates';
import { useAdminPages, useHeaderFollows } from '../api/customer-detail';
import { useCumulativeCost } from '../api/customer-tabs';
import { customerKeys } from '../api/keys';
import { Permission, usePermission } from '../permission';
import { PagedTable } from './paged-table';
import { ErrorAlert } from '../../../components/error-alert';

/** Money '--' when zero, as the spec shows cost and forecast. */
const costText = (amount: number) => (amount === 0 ? '--' : formatUsd(amount));

/** The current month per subscription and the last 12 months (Cost Analysis tab). */
export function CostTab({ userId }: { userId: string }) {
  const current = usePermission('customer_cost_current_month');
  const months = usePermission('customer_cost_last_months');
  return (
    <Stack gap="lg">
      {current.visible && (
        <Permission name="customer_cost_current_month">
          <CurrentMonth userId={userId} />
        </Permission>
      )}
      {months.visible && (
        <Permission name="customer_cost_last_months">
          <LastMonths userId={userId} />
        </Permission>
      )}
    </Stack>
  );
}

function CurrentMonth({ userId }: { userId: string }) {
  const pages = useAdminPages(customerKeys.tab(userId, 'cost'), (page, size, signal) =>
    api.get(`/api/admin/cost-analysis/${userId}`, { query: { page, size }, signal }),
  );
  useHeaderFollows(userId, pages.query.dataUpdatedAt);
  const first = pages.query.data?.pages[0];
  const nothing = first && first.consumed_amount === 0 && first.forecasted_amount === 0;
  return (
    <Card withBorder>
      <Title order={3} fz="md">
        Current month
      </Title>
      {first && (
        <Text fz="xs" c="dimmed" mb="sm">
          {formatDateTime(first.start_date)} – {formatDateTime(first.end_date)} · consumed {formatUsd(first.consumed_amount)} · forecast{' '}
          {formatUsd(first.forecasted_amount)}
        </Text>
      )}
      {nothing ? (
        <Text c="dimmed" py="lg" ta="center">
          {ADMIN_MESSAGES.noUsageCost}
        </Text>
      ) : (
        <PagedTable
          pages={pages}
          label="Current month cost"
          empty={ADMIN_MESSAGES.noUsageCost}
          head={
            <Table.Tr>
              <Table.Th>Subscription</Table.Th>
              <Table.Th>Consumed</Table.Th>
              <Table.Th>Forecast</Table.Th>
              <Table.Th>Balance</Table.Th>
            </Table.Tr>
          }
          row={(row) => (
            <Table.Tr key={row.subscription_id}>
              <Table.Td>{row.subscription_name}</Table.Td>
              <Table.Td>{costText(row.consumed_amount)}</Table.Td>
              <Table.Td>{costText(row.forecasted_amount)}</Table.Td>
              <Table.Td>{formatUsd(row.balance)}</Table.Td>
            </Table.Tr>
          )}
        />
      )}
    </Card>
  );
}

function LastMonths({ userId }: { userId: string }) {
  const query = useCumulativeCost(userId);
  const total = (query.data ?? []).reduce((sum, month) => sum + month.monthly_consumed_amount, 0);
  return (
    <Card withBorder>
      <Title order={3} fz="md" mb="sm">
        Last 12 months
      </Title>
      {query.isPending ? (
        <Center py="md">
          <Loader size="sm" aria-label="Loading the last 12 months" />
        </Center>
      ) : query.isError ? (
        <ErrorAlert error={query.error} />
      ) : total === 0 ? (
        <Text c="dimmed" py="lg" ta="center">
          {ADMIN_MESSAGES.noUsageCost}
        </Text>
      ) : (
        <Table aria-label="Last 12 months">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Month</Table.Th>
              <Table.Th>Total cost</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {query.data.map((month) => (
              <Table.Tr key={month.date}>
                <Table.Td>{formatMonth(month.date)}</Table.Td>
                <Table.Td>{costText(month.monthly_consumed_amount)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Card>
  );
}
