import type { ReactNode } from 'react';
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { Box, Center, EmptyState, Loader, Table, Text } from '@mantine/core';
import { formatDateTime } from '../lib/dates';
import { useLoadMoreOnScroll } from '../lib/scroll';
import { ErrorAlert } from './error-alert';

interface AuditRow {
  audit_id: string;
  date: string;
  description: string;
  caused_by: string;
}
interface AuditPage {
  page_content: { content: AuditRow[]; totalPages: number };
}

interface AuditLogTableProps {
  query: UseInfiniteQueryResult<InfiniteData<AuditPage>>;
  /** The table's accessible name, e.g. 'Audit logs'; the loaders are named after it. */
  label: string;
  emptyIcon: ReactNode;
  emptyTitle: string;
}

/** A month of audit entries (date, what happened, by whom), 20 at a time, the next page loading at the bottom of the box. */
export function AuditLogTable({ query, label, emptyIcon, emptyTitle }: AuditLogTableProps) {
  const onScroll = useLoadMoreOnScroll(query);
  const rows = query.data?.pages.flatMap((page) => page.page_content.content) ?? [];

  if (query.isPending) {
    return (
      <Center py="xl">
        <Loader size="sm" aria-label={`Loading ${label.toLowerCase()}`} />
      </Center>
    );
  }
  if (query.isError) {
    return <ErrorAlert error={query.error} />;
  }
  if (rows.length === 0) {
    return <EmptyState variant="light" icon={emptyIcon} title={emptyTitle} py="xl" />;
  }
  return (
    // A scrolling box takes the focus, so its rows can be scrolled by keyboard too; its name differs from the
    // section's around it, so the two landmarks stay apart.
    <Box
      onScroll={onScroll}
      tabIndex={0}
      role="region"
      aria-label={`${label} entries`}
      style={{
        maxHeight: 'max(320px, calc(100dvh - 520px))',
        overflowY: 'auto',
        border: '1px solid var(--mantine-color-default-border)',
        borderRadius: 'var(--mantine-radius-md)',
      }}
    >
      <Table stickyHeader verticalSpacing="sm" aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            {/* On a phone the date takes two lines, so the description keeps the width to read. */}
            <Table.Th c="dimmed" fz="xs" tt="uppercase" w={{ base: 96, sm: 200 }}>
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
              <Table.Td style={{ verticalAlign: 'top' }}>
                <Text fz="sm">{formatDateTime(entry.date)}</Text>
              </Table.Td>
              <Table.Td>
                <Text fz="sm" style={{ overflowWrap: 'anywhere' }}>
                  {entry.description}
                </Text>
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
          <Loader size="xs" aria-label={`Loading more ${label.toLowerCase()}`} />
        </Center>
      )}
    </Box>
  );
}
