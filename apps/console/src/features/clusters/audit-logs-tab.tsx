import { useState } from 'react';
import { Box, Center, EmptyState, Group, Loader, Stack, Table, Text } from '@mantine/core';
import { CLUSTER_MESSAGES } from '@kumo/contract';
import { IconReceipt } from '../../components/icons';
import { errorMessage } from '../../lib/api-error';
import { formatDateTime } from '../../lib/format';
import { useLoadMoreOnScroll } from '../../lib/scroll';
import { useAuditLogs } from './api/audit-logs';
import { statusColorClass } from './cluster-status';
import { MonthSelect } from '../../components/cost/month-select';
import { costMonthOptions, utcMonthStart } from '../../components/cost/months';

/** A month of the cluster's audit log, 20 entries at a time, the next page loading at the bottom of the box. */
export function AuditLogsTab({ deploymentId }: { deploymentId: string }) {
  const [month, setMonth] = useState(() => utcMonthStart());
  return (
    <Stack gap="md">
      <Group justify="flex-end">
        <MonthSelect options={costMonthOptions()} value={month} onChange={setMonth} label="Logs for" />
      </Group>
      <AuditLogTable deploymentId={deploymentId} startDate={month} />
    </Stack>
  );
}

function AuditLogTable({ deploymentId, startDate }: { deploymentId: string; startDate: string }) {
  const query = useAuditLogs(deploymentId, startDate);
  const onScroll = useLoadMoreOnScroll(query);
  const rows = query.data?.pages.flatMap((page) => page.page_content.content) ?? [];

  if (query.isPending) {
    return (
      <Center py="xl">
        <Loader size="sm" aria-label="Loading audit logs" />
      </Center>
    );
  }
  if (query.isError) {
    return (
      <Text className={statusColorClass('red')} fz="sm" role="alert">
        {errorMessage(query.error)}
      </Text>
    );
  }
  if (rows.length === 0) {
    return <EmptyState variant="light" icon={<IconReceipt size={24} />} title={CLUSTER_MESSAGES.noAuditLogs} py="xl" />;
  }
  return (
    <Box
      data-testid="audit-log-scroll"
      onScroll={onScroll}
      style={{
        maxHeight: 'max(320px, calc(100dvh - 520px))',
        overflowY: 'auto',
        border: '1px solid var(--mantine-color-default-border)',
        borderRadius: 'var(--mantine-radius-md)',
      }}
    >
      <Table stickyHeader verticalSpacing="sm" aria-label="Audit logs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th c="dimmed" fz="xs" tt="uppercase" w={200}>
              Date
            </Table.Th>
            <Table.Th c="dimmed" fz="xs" tt="uppercase">
              Description
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((entry) => (
            <Table.Tr key={entry.audit_id}>
              <Table.Td style={{ whiteSpace: 'nowrap', verticalAlign: 'top' }}>
                <Text fz="sm">{formatDateTime(entry.date)}</Text>
              </Table.Td>
              <Table.Td>
                <Text fz="sm">{entry.description}</Text>
                <Text fz="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  by {entry.caused_by}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {query.isFetchingNextPage && (
        <Center py="sm">
          <Loader size="xs" aria-label="Loading more audit logs" />
        </Center>
      )}
    </Box>
  );
}
