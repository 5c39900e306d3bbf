import { MESSAGES, type CustomerListItem } from '@kumo/contract';
import { Link } from 'react-router';
import { Card, Center, EmptyState, Loader, NavLink, ScrollArea, Text, Tooltip } from '@mantine/core';
import { IconBuilding } from '../../components/icons';
import type { useCustomers } from './api/customers';
import { ErrorAlert } from '../../components/error-alert';

interface CustomerListProps {
  query: ReturnType<typeof useCustomers>;
  customers: CustomerListItem[];
  selectedId: string | undefined;
}

export function CustomerList({ query, customers, selectedId }: CustomerListProps) {
  const loadMore = () => {
    if (query.hasNextPage && !query.isFetchingNextPage) void query.fetchNextPage();
  };

  return (
    <Card p="xs">
      <Text fw={600} px="sm" pt="xs" pb="sm">
        All customers
      </Text>
      {query.isPending ? (
        <Center py="xl">
          <Loader size="sm" aria-label="Loading customers" />
        </Center>
      ) : query.isError ? (
        <ErrorAlert error={query.error} mx="sm" mb="sm" />
      ) : customers.length === 0 ? (
        <EmptyState size="sm" icon={<IconBuilding size={22} />} title={MESSAGES.noCustomersListed} py="xl" />
      ) : (
        <ScrollArea.Autosize mah="calc(100dvh - 280px)" onBottomReached={loadMore} type="auto">
          <nav aria-label="Customers">
            {customers.map((customer) => (
              <Tooltip key={customer.user_id} label={`${customer.user_name} (${customer.email_id})`} position="right">
                <NavLink
                  component={Link}
                  to={`/admin/customers/${customer.user_id}`}
                  label={customer.email_id}
                  active={customer.user_id === selectedId}
                  aria-current={customer.user_id === selectedId ? 'page' : undefined}
                  variant="light"
                  style={{ borderRadius: 'var(--mantine-radius-md)' }}
                  styles={{ label: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } }}
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
