import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Anchor, Card, Center, Loader } from '@mantine/core';
import { PageHeader } from '../../components/page-header';
import { api } from '../../lib/api-client';
import { errorMessage } from '../../lib/api-error';

/**
 * The subscription report (balances, monthly consumption by service, the period's transactions) the API
 * renders behind a short-lived report session, shown in a frame (spec section 2, Reports page).
 */
export function ReportsPage() {
  const report = useQuery({
    queryKey: ['reports', 'url'],
    queryFn: ({ signal }) => api.get('/api/user/report-url', { signal }),
    // Each visit gets its own report session; an address is not reused once the page is left.
    gcTime: 0,
    staleTime: Infinity,
  });
  // Leaving the page ends the report session.
  useEffect(
    () => () => {
      void api.get('/api/user/report-logout').catch(() => undefined);
    },
    [],
  );
  const url = report.data?.subscription_report_url;

  return (
    <>
      <PageHeader
        title="Reports"
        description="Balances, monthly consumption by service and the transactions of the period, ready to print."
        actions={
          url ? (
            <Anchor href={url} target="_blank" rel="noopener noreferrer">
              Open the report in a new tab
            </Anchor>
          ) : undefined
        }
      />
      <Card p={0}>
        {report.isError ? (
          <Alert color="red" variant="light" role="alert" m="md">
            {errorMessage(report.error)}
          </Alert>
        ) : !url ? (
          <Center py={64}>
            <Loader size="sm" aria-label="Loading the report" />
          </Center>
        ) : (
          <iframe title="Subscription report" src={url} style={{ width: '100%', height: '75vh', border: 0, display: 'block' }} />
        )}
      </Card>
    </>
  );
}
