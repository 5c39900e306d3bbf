import { useState } from 'react';
import { Navigate, useParams } from 'react-router';
import { useDebouncedValue } from '@mantine/hooks';
import { Grid } from '@mantine/core';
import { PageHeader } from '../../components/page-header';
import { useActiveName } from '../../lib/active-names';
import { useCustomers } from './api/customers';
import { CustomerDetails } from './customer-details';
import { CustomerList } from './customer-list';
import { Permission, usePermission } from './permission';

/** Typing pauses this long before the list is asked for again. */
const SEARCH_DEBOUNCE_MS = 300;

/** /admin/customers and /admin/customers/{userId}: the list on the left, the selection's details on the right. */
export function CustomersPage() {
  const { userId } = useParams();
  const list = usePermission('customer_list');
  const details = usePermission('customer_details');
  const [search, setSearch] = useState('');
  const [searched] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const customersQuery = useCustomers({ enabled: list.visible, search: searched });
  const customers = customersQuery.data?.pages.flatMap((page) => page.content) ?? [];
  const first = customers[0];
  const selected = customers.find((customer) => customer.user_id === userId);
  useActiveName('customer', selected?.user_name);

  // The route follows the selection; with none made, the first customer is selected.
  if (!userId && first && !searched) return <Navigate to={`/admin/customers/${first.user_id}`} replace />;

  return (
    <>
      <PageHeader title="Customers" description="Accounts that have signed up for the service." />
      <Grid gap="lg">
        {list.visible && (
          <Grid.Col span={{ base: 12, md: 4, lg: 3 }}>
            <Permission name="customer_list">
              <CustomerList
                query={customersQuery}
                customers={customers}
                selectedId={userId}
                search={search}
                onSearchChange={setSearch}
                searching={!!searched}
              />
            </Permission>
          </Grid.Col>
        )}
        {details.visible && (
          <Grid.Col span={list.visible ? { base: 12, md: 8, lg: 9 } : 12}>
            <Permission name="customer_details">
              <CustomerDetails userId={userId} />
            </Permission>
          </Grid.Col>
        )}
      </Grid>
    </>
  );
}
