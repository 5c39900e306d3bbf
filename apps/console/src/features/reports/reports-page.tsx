import { useEffect } from 'react';
import { Anchor, Card, Center, Loader } from '@mantine/core';
import { PageHeader } from '../../components/page-header';
import { useReportUrl } from './api/report';
import { endReportSession } from '../../lib/api/report-session';
import { ErrorAlert } from '../../components/error-alert';

/**
 * The subscription report (balances, monthly consumption by service, the period's transactions) the API
 * renders behind a short-lived report session, shown in a frame (spec section 2, Reports page).
 */
export function ReportsPage() {
  const report = useReportUrl();
  // Leaving the page ends the report session.
  useEffect(() => () => void endReportSession(), []);
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
          <ErrorAlert error={report.error} m="md" />
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
