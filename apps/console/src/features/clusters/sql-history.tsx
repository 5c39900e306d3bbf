import { useState } from 'react';
import { Badge, Center, Code, Loader, Pagination, Stack, Table, Text, Title } from '@mantine/core';
import type { ClusterQueryStatus } from '@kumo/contract';
import { useMediaQuery } from '@mantine/hooks';
import { ErrorAlert } from '../../components/error-alert';
import classes from '../../components/stacked-table.module.css';
import { STACKED_TABLE_QUERY } from '../../components/stacked-table-query';
import { formatDateTime } from '../../lib/dates';
import { useQueryHistory } from './api/sql';
import { clientName } from '../../lib/client-name';

const STATUS_COLORS: Record<ClusterQueryStatus, string> = { OK: 'green', FAILED: 'red', REFUSED: 'orange' };

/** Every query through the console or the endpoint, and every refused attempt: who knocked, from where, with what. */
export function SqlHistory({ deploymentId }: { deploymentId: string }) {
  const [page, setPage] = useState(0);
  const history = useQueryHistory(deploymentId, page);
  const data = history.data;
  // On a phone the rows are cards (stacked-table): nothing to scroll sideways, so no width to hold.
  const phone = useMediaQuery(STACKED_TABLE_QUERY);
  return (
    <Stack gap="xs" mt="xl">
      <Title order={3} fz="md">
        History
      </Title>
      {history.error ? (
        <ErrorAlert error={history.error} />
      ) : !data ? (
        <Center py="md">
          <Loader size="sm" aria-label="Loading the query history" />
        </Center>
      ) : data.content.length === 0 ? (
        <Text fz="sm" c="dimmed">
          No queries yet.
        </Text>
      ) : (
        <>
          {/* Wider than the card, the table scrolls in its own box; on a phone each query is a card of named values. */}
          <Table.ScrollContainer minWidth={phone ? 0 : 960}>
            <Table fz="sm" className={classes.table} aria-label="Query history">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Started</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Query</Table.Th>
                  <Table.Th>User</Table.Th>
                  <Table.Th>From</Table.Th>
                  <Table.Th>Rows</Table.Th>
                  <Table.Th>Duration</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.content.map((entry) => (
                  <Table.Tr key={entry.query_id}>
                    <Table.Td data-label="Started" style={{ whiteSpace: 'nowrap' }}>
                      {formatDateTime(entry.started_at)}
                    </Table.Td>
                    <Table.Td data-label="Status">
                      {/* Its full word always: a narrow column would otherwise cut FAILED short. */}
                      <Badge size="sm" variant="light" color={STATUS_COLORS[entry.status]} style={{ minWidth: 'max-content' }}>
                        {entry.status}
                      </Badge>
                    </Table.Td>
                    <Table.Td data-label="Query" maw={420}>
                      {/* One block per cell, so a phone's card keeps its parts together beside the cell's name. */}
                      {/* The query reads from the left, and on a phone takes the card's width rather than 280 px. */}
                      <div style={{ minWidth: 0, textAlign: 'left' }}>
                        <Code block miw={phone ? 0 : 280} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                          {entry.query || '—'}
                        </Code>
                        {entry.error && (
                          <Text fz="xs" c="var(--mantine-color-error)" mt={4}>
                            {entry.error}
                          </Text>
                        )}
                      </div>
                    </Table.Td>
                    <Table.Td data-label="User" style={{ overflowWrap: 'anywhere' }}>
                      <div>
                        {entry.user}
                        <Text fz="xs" c="dimmed">
                          {entry.source === 'CONSOLE' ? 'Console' : 'Endpoint'}
                        </Text>
                      </div>
                    </Table.Td>
                    <Table.Td data-label="From" maw={220} style={{ overflowWrap: 'anywhere' }}>
                      <div>
                        {entry.client_address ?? '—'}
                        {entry.user_agent && (
                          <Text fz="xs" c="dimmed" title={entry.user_agent}>
                            {clientName(entry.user_agent)}
                          </Text>
                        )}
                      </div>
                    </Table.Td>
                    <Table.Td data-label="Rows">{entry.row_count ?? '—'}</Table.Td>
                    <Table.Td data-label="Duration" style={{ whiteSpace: 'nowrap' }}>
                      {entry.duration_ms} ms
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {data.totalPages > 1 && (
            <Pagination
              total={data.totalPages}
              value={page + 1}
              onChange={(value) => setPage(value - 1)}
              size="sm"
              getControlProps={(control) => ({ 'aria-label': `${control} page` })}
              getItemProps={(item) => ({ 'aria-label': `Page ${item}` })}
            />
          )}
        </>
      )}
    </Stack>
  );
}
