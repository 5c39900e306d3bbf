import { Navigate, useParams } from 'react-router';
import { Grid } from '@mantine/core';
import { PageHeader } from '../../components/page-header';
import { useCustomers } from './api/customers';
import { CustomerDetails } from './customer-details';
import { CustomerList } from './customer-list';

/** /admin/customers and /admin/customers/{userId}: the list on the left, the selection's details on the right. */
export function CustomersPage() {
  const { userId } = useParams();
  const customersQuery = useCustomers();
  const customers = customersQuery.data?.pages.flatMap((page) => page.content) ?? [];
  const first = customers[0];

  // The route follows the selection; with none made, the first customer is selected.
  if (!userId && first) return <Navigate to={`/admin/customers/${first.user_id}`} replace />;

  return (
    <>
      <PageHeader title="Customers" description="Accounts that have signed up for the service." />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 5, lg: 4 }}>
          <CustomerList query={customersQuery} customers={customers} selectedId={userId} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7, lg: 8 }}>
          <CustomerDetails customer={customers.find((customer) => customer.user_id === userId)} />
        </Grid.Col>
      </Grid>
    </>
  );
}
