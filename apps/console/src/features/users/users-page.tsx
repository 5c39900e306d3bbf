import { MESSAGES } from '@kumo/contract';
import { Card, EmptyState } from '@mantine/core';
import { ComingSoonButton } from '../../components/coming-soon-button';
import { IconUsers } from '../../components/icons';
import { PageHeader } from '../../components/page-header';

export function UsersPage() {
  return (
    <>
      <PageHeader
        title="Users"
        description="People who can work in this account, and their roles."
        actions={<ComingSoonButton>Add</ComingSoonButton>}
      />
      <Card>
        <EmptyState
          variant="light"
          icon={<IconUsers size={24} />}
          title={MESSAGES.noUserAdded}
          description="Click Add to invite a user to this account."
          py={64}
        />
      </Card>
    </>
  );
}
