import { MESSAGES } from '@kumo/contract';
import { Card, EmptyState } from '@mantine/core';
import { ComingSoonButton } from '../../components/coming-soon-button';
import { IconServer } from '../../components/icons';
import { PageHeader } from '../../components/page-header';

export function ClustersPage() {
  return (
    <>
      <PageHeader
        title="Clusters"
        description="Analytics clusters, grouped by the subscription that pays for them."
        actions={<ComingSoonButton>New</ComingSoonButton>}
      />
      <Card>
        <EmptyState variant="light" icon={<IconServer size={24} />} title={MESSAGES.noClusterClickNew} py={64} />
      </Card>
    </>
  );
}
