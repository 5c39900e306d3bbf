import type { ReactNode } from 'react';
import { Box, Center, Loader, Stack, Table, Title } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { ErrorAlert } from '../../components/error-alert';
import classes from '../../components/stacked-table.module.css';

interface DetailsTableProps<T> {
  /** The heading, which also names the table and its loader. */
  title: string;
  columns: string[];
  minWidth: number;
  query: UseQueryResult<T>;
  /** The table's rows, from the loaded data; each cell names its column in `data-label` (a phone shows it beside the value). */
  rows: (data: T) => ReactNode;
}

/**
 * A titled table of a cluster's details: a loader while they load, the error if they fail. On a phone each row is
 * a card of named values, so every column (a node's status among them) reads in full without scrolling sideways.
 */
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
        // Wider than a laptop's card, the table scrolls in its own box; the stacked phone layout sets its min-width aside.
        <Box style={{ overflowX: 'auto' }}>
          <Table verticalSpacing="xs" aria-label={title} miw={minWidth} className={classes.table}>
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
        </Box>
      )}
    </Stack>
  );
}
