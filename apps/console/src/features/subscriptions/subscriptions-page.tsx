import { MESSAGES } from '@kumo/contract';
import { Card, EmptyState } from '@mantine/core';
import { ComingSoonButton } from '../../components/coming-soon-button';
import { IconWallet } from '../../components/icons';
import { PageHeader } from '../../components/page-header';

export function SubscriptionsPage() {
  return (
    <>
      <PageHeader
        title="Subscriptions"
        description="Prepaid subscriptions hold the funds your clusters run on."
        actions={<ComingSoonButton>New</ComingSoonButton>}
      />
      <Card>
        <EmptyState
          variant="light"
          icon={<IconWallet size={24} />}
          title={MESSAGES.noSubscriptions}
          description="Click New to create a subscription, then add funds to it."
          py={64}
        />
      </Card>
    </>
  );
}
