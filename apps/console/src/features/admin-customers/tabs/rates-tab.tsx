import { useState } from 'react';
import { Button, Card, Center, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import {
  ADMIN_MESSAGES,
  METERING_DIMENSION_LABELS,
  FREE_UNIT_DIMENSIONS,
  FREE_UNIT_UNITS,
  type FreeUnitDimension,
  type RateCard,
} from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { formatInForceSince, formatRatePeriod } from '../../../lib/dates';
import { formatRate } from '../../../lib/format';
import { useAdminPages } from '../api/customer-detail';
import { useRateCard } from '../api/customer-tabs';
import { customerKeys } from '../api/keys';
import { Permission, usePermission } from '../permission';
import { ServiceRatesDialog } from '../service-rates-dialog';
import { PagedTable } from './paged-table';
import { ErrorAlert } from '../../../components/error-alert';

/** Current rates with Change Service Rates, and the history of rate periods (Service Rates tab). */
export function RatesTab({ userId }: { userId: string }) {
  const current = usePermission('customer_current_rates');
  const history = usePermission('customer_rate_history');
  return (
    <Stack gap="lg">
      {current.visible && (
        <Permission name="customer_current_rates">
          <CurrentRates userId={userId} />
        </Permission>
      )}
      {history.visible && (
        <Permission name="customer_rate_history">
          <RateHistory userId={userId} />
        </Permission>
      )}
    </Stack>
  );
}

function CurrentRates({ userId }: { userId: string }) {
  const query = useRateCard(userId);
  const [editing, setEditing] = useState<RateCard | null>(null);

  return (
    <Card withBorder>
      <Group justify="space-between" mb="sm">
        <Stack gap={0}>
          <Title order={3} fz="md">
            Current rates
          </Title>
          {query.data && (
            <Text fz="xs" c="dimmed">
              In force {formatInForceSince(query.data.effective_date)}
            </Text>
          )}
        </Stack>
        <Permission name="customer_change_rates">
          {({ disabled }) => (
            <Button size="sm" disabled={disabled || !query.data} onClick={() => query.data && setEditing(query.data)}>
              Change Service Rates
            </Button>
          )}
        </Permission>
      </Group>
      {query.isPending ? (
        <Center py="md">
          <Loader size="sm" aria-label="Loading current rates" />
        </Center>
      ) : query.isError ? (
        <ErrorAlert error={query.error} />
      ) : (
        <Table aria-label="Current rates">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Service</Table.Th>
              <Table.Th>Rate</Table.Th>
              <Table.Th>Unit</Table.Th>
              <Table.Th>Free a month</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {query.data.rates.map((rate) => (
              <Table.Tr key={rate.dimension}>
                <Table.Td>{METERING_DIMENSION_LABELS[rate.dimension]}</Table.Td>
                <Table.Td>{formatRate(rate.rate)}</Table.Td>
                <Table.Td>{rate.unit}</Table.Td>
                <Table.Td>
                  {(FREE_UNIT_DIMENSIONS as readonly string[]).includes(rate.dimension)
                    ? `${rate.free_units} ${FREE_UNIT_UNITS[rate.dimension as FreeUnitDimension]}`
                    : '--'}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <ServiceRatesDialog userId={userId} card={editing} onClose={() => setEditing(null)} />
    </Card>
  );
}

function RateHistory({ userId }: { userId: string }) {
  const pages = useAdminPages(customerKeys.tab(userId, 'rate-history'), (page, size, signal) =>
    api.get(`/api/admin/service-rate-history/${userId}`, { query: { page, size }, signal }),
  );
  return (
    <Card withBorder>
      <Title order={3} fz="md" mb="sm">
        Rate history
      </Title>
      <PagedTable
        pages={pages}
        label="Rate history"
        empty={ADMIN_MESSAGES.noRateChanges}
        head={
          <Table.Tr>
            <Table.Th>Period</Table.Th>
            <Table.Th>Rates</Table.Th>
          </Table.Tr>
        }
        row={(period) => (
          <Table.Tr key={period.start_end}>
            <Table.Td>{formatRatePeriod(period.start_date, period.end_date)}</Table.Td>
            <Table.Td>
              <Text fz="xs">
                {period.rates
                  .map(
                    (r) =>
                      `${METERING_DIMENSION_LABELS[r.dimension]} ${formatRate(r.rate)}${r.free_trial ? ` (${r.free_trial} free)` : ''}`,
                  )
                  .join(' · ')}
              </Text>
            </Table.Td>
          </Table.Tr>
        )}
      />
    </Card>
  );
}
