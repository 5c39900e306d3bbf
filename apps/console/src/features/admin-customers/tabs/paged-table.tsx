import type { ReactNode } from 'react';
import { Center, EmptyState, Loader, ScrollArea, Table } from '@mantine/core';
import type { useAdminPages } from '../api/customer-detail';
import { ErrorAlert } from '../../../components/error-alert';

interface PagedTableProps<T> {
  pages: Pick<ReturnType<typeof useAdminPages<{ content: T[]; totalPages: number }>>, 'items' | 'loadMore'> & {
    query: Pick<ReturnType<typeof useAdminPages>['query'], 'isPending' | 'isError' | 'error' | 'isFetchingNextPage'>;
  };
  /** Names the table and its loaders. */
  label: string;
  empty: string;
  head: ReactNode;
  row: (item: T) => ReactNode;
}

/** A table of 20 a page that asks for the next page when scrolled to within 1px of its end (spec section 4). */
export function PagedTable<T>({ pages, label, empty, head, row }: PagedTableProps<T>) {
  const { query, items, loadMore } = pages;
  if (query.isPending) {
    return (
      <Center py="xl">
        <Loader size="sm" aria-label={`Loading ${label.toLowerCase()}`} />
      </Center>
    );
  }
  if (query.isError) {
    return <ErrorAlert error={query.error} my="md" />;
  }
  if (items.length === 0) return <EmptyState size="sm" title={empty} py="xl" />;
  return (
    <ScrollArea.Autosize mah="calc(100dvh - 360px)" onBottomReached={loadMore} type="auto" offsetScrollbars>
      <Table striped highlightOnHover stickyHeader aria-label={label} miw={640}>
        <Table.Thead>{head}</Table.Thead>
        <Table.Tbody>{items.map(row)}</Table.Tbody>
      </Table>
      {query.isFetchingNextPage && (
        <Center py="sm">
          <Loader size="xs" aria-label={`Loading more ${label.toLowerCase()}`} />
        </Center>
      )}
    </ScrollArea.Autosize>
  );
}
