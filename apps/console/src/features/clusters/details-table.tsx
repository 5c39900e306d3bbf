import type { ReactNode } from 'react';
import { Center, Loader, Stack, Table, Title } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { ErrorAlert } from '../../components/error-alert';

interface DetailsTableProps<T> {
  /** The heading, which also names the table and its loader. */
  title: string;
  columns: string[];
  minWidth: number;
  query: UseQueryResult<T>;
  /** The table's rows, from the loaded data. */
  rows: (data: T) => ReactNode;
}

/** A titled table of a cluster's details: a loader while they load, the error if they fail. */
export function DetailsTable<T>({ title, columns, minWidth, query, rows }: DetailsTableProps<T>) {
  return (
    <Stack gap="xs">
      <Title order={3} fz="md">
        {title}
      </Title>
      {query.isPending ? (
        <Center py="md">
          <Loader size="sm" aria-label={`Loading the ${title.toLowerCase()}`} />
        </Center>
      ) : query.isError ? (
        <ErrorAlert error={query.error} />
      ) : (
        <Table.ScrollContainer minWidth={minWidth}>
          <Table verticalSpacing="xs" aria-label={title}>
            <Table.Thead>
              <Table.Tr>
                {columns.map((column) => (
                  <Table.Th key={column} c="dimmed" fz="xs" tt="uppercase">
                    {column}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>{rows(query.data)}</Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
