import { ListLink } from '../../components/list-link';
import { MESSAGES, type CustomerListItem } from '@kumo/contract';
import { Card, Center, EmptyState, Loader, ScrollArea, Text, TextInput, Tooltip } from '@mantine/core';
import { IconBuilding, IconSearch } from '../../components/icons';
import type { useCustomers } from './api/customers';
import { ErrorAlert } from '../../components/error-alert';

interface CustomerListProps {
  query: ReturnType<typeof useCustomers>;
  customers: CustomerListItem[];
  selectedId: string | undefined;
  search: string;
  onSearchChange: (search: string) => void;
  /** A search is applied: an empty answer says no customer matches rather than none exist. */
  searching: boolean;
}

export function CustomerList({ query, customers, selectedId, search, onSearchChange, searching }: CustomerListProps) {
  const loadMore = () => {
    if (query.hasNextPage && !query.isFetchingNextPage) void query.fetchNextPage();
  };

  return (
    <Card p="xs">
      <Text fw={600} px="sm" pt="xs" pb="sm">
        All customers
      </Text>
      <TextInput
        mx="sm"
        mb="sm"
        type="search"
        aria-label="Search customers by e-mail or name"
        placeholder="Search by e-mail or name"
        leftSection={<IconSearch size={16} />}
        value={search}
        onChange={(event) => onSearchChange(event.currentTarget.value)}
      />
      {query.isPending ? (
        <Center py="xl">
          <Loader size="sm" aria-label="Loading customers" />
        </Center>
      ) : query.isError ? (
        <ErrorAlert error={query.error} mx="sm" mb="sm" />
      ) : customers.length === 0 ? (
        <EmptyState
          size="sm"
          icon={<IconBuilding size={22} />}
          title={searching ? 'No customer matches this search.' : MESSAGES.noCustomersListed}
          py="xl"
        />
      ) : (
        // Up and down only: a long e-mail is cut short with an ellipsis (its tooltip has it whole) rather than
        // widening the list past a phone's screen.
        <ScrollArea.Autosize
          mah="calc(100dvh - 280px)"
          onBottomReached={loadMore}
          type="auto"
          scrollbars="y"
          styles={{ content: { minWidth: 0 } }}
        >
          <nav aria-label="Customers">
            {customers.map((customer) => (
              <Tooltip key={customer.user_id} label={`${customer.user_name} (${customer.email_id})`} position="right">
                <ListLink
                  to={`/admin/customers/${customer.user_id}`}
                  label={customer.email_id}
                  labelWeight="regular"
                  active={customer.user_id === selectedId}
                />
              </Tooltip>
            ))}
            {query.isFetchingNextPage && (
              <Center py="sm">
                <Loader size="xs" aria-label="Loading more customers" />
              </Center>
            )}
          </nav>
        </ScrollArea.Autosize>
      )}
    </Card>
  );
}
