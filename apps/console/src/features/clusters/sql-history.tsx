import { useState } from 'react';
import { Badge, Center, Code, Loader, Pagination, Stack, Table, Text, Title } from '@mantine/core';
import type { ClusterQueryStatus } from '@kumo/contract';
import { ErrorAlert } from '../../components/error-alert';
import { formatDateTime } from '../../lib/dates';
import { useQueryHistory } from './api/sql';
import { clientName } from '../../lib/client-name';

const STATUS_COLORS: Record<ClusterQueryStatus, string> = { OK: 'green', FAILED: 'red', REFUSED: 'orange' };

/** Every query through the console or the endpoint, and every refused attempt: who knocked, from where, with what. */
export function SqlHistory({ deploymentId }: { deploymentId: string }) {
  const [page, setPage] = useState(0);
  const history = useQueryHistory(deploymentId, page);
  const data = history.data;
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
          <Table.ScrollContainer minWidth={960}>
            <Table fz="sm" aria-label="Query history">
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
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(entry.started_at)}</Table.Td>
                    <Table.Td>
                      <Badge size="sm" variant="light" color={STATUS_COLORS[entry.status]}>
                        {entry.status}
                      </Badge>
                    </Table.Td>
                    <Table.Td maw={420}>
                      <Code block miw={280} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                        {entry.query || '—'}
                      </Code>
                      {entry.error && (
                        <Text fz="xs" c="var(--mantine-color-error)" mt={4}>
                          {entry.error}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>
                      {entry.user}
                      <Text fz="xs" c="dimmed">
                        {entry.source === 'CONSOLE' ? 'Console' : 'Endpoint'}
                      </Text>
                    </Table.Td>
                    <Table.Td maw={220} style={{ overflowWrap: 'anywhere' }}>
                      {entry.client_address ?? '—'}
                      {entry.user_agent && (
                        <Text fz="xs" c="dimmed" title={entry.user_agent}>
                          {clientName(entry.user_agent)}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>{entry.row_count ?? '—'}</Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{entry.duration_ms} ms</Table.Td>
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
