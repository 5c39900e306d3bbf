import { Link } from 'react-router';
import { Button } from '@mantine/core';
import { IconReceipt } from './icons';
import { PageHeader } from './page-header';

// The headers of the customer pages a signed-in person opens the console on. The pages show them, and the build draws
// them into each page's first screen (app/first-screen/render.tsx), so both are the same.

export function HomeHeader({ firstName }: { firstName?: string }) {
  return (
    <PageHeader
      title={firstName ? `Welcome, ${firstName}` : 'Home'}
      description="Your subscriptions, clusters and shortcuts at a glance."
    />
  );
}

export function ClustersHeader() {
  return <PageHeader title="Clusters" description="Analytics clusters, grouped by the subscription that pays for them." />;
}

export function SubscriptionsHeader() {
  return <PageHeader title="Subscriptions" description="Prepaid subscriptions hold the funds your clusters run on." />;
}

export function CostAnalysisHeader() {
  return (
    <PageHeader
      title="Cost Analysis"
      description="Actual and forecast cost of each subscription, by day and by month."
      actions={
        <Button component={Link} to="/reports" variant="default" leftSection={<IconReceipt size={16} />}>
          Subscription report
        </Button>
      }
    />
  );
}

export function UsersHeader() {
  return <PageHeader title="Users" description="People who can work in this account, and their roles." />;
}
