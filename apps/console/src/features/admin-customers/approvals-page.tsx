import { Badge, Card, Center, Code, EmptyState, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { ADMIN_ACTION_LABELS, ADMIN_MESSAGES, type PendingApproval } from '@kumo/contract';
import { PageHeader } from '../../components/page-header';
import { IconKey } from '../../components/icons';
import { formatDateTime } from '../../lib/dates';
import { useApprovals } from './api/customer-tabs';
import { ErrorAlert } from '../../components/error-alert';

/**
 * /admin/approvals: the actions waiting for the signed-in staff member to approve, with exactly what
 * was asked (the frozen payload), so the approver knows what the OTP in their mail approves.
 */
export function ApprovalsPage() {
  const query = useApprovals();
  return (
    <>
      <PageHeader
        title="Approvals"
        description="Actions other staff members asked for. Check each one, then read them the OTP from your e-mail."
      />
      {query.isPending ? (
        <Center py="xl">
          <Loader size="sm" aria-label="Loading approvals" />
        </Center>
      ) : query.isError ? (
        <ErrorAlert error={query.error} />
      ) : query.data.length === 0 ? (
        <Card>
          <EmptyState variant="light" icon={<IconKey size={24} />} title={ADMIN_MESSAGES.noApprovals} py={48} />
        </Card>
      ) : (
        <Stack gap="md" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {query.data.map((approval) => (
            <ApprovalCard key={approval.operation_id} approval={approval} />
          ))}
        </Stack>
      )}
    </>
  );
}

function ApprovalCard({ approval }: { approval: PendingApproval }) {
  return (
    <Card component="li" aria-label={`${ADMIN_ACTION_LABELS[approval.action_name]} for ${approval.customer_email}`}>
      <Group justify="space-between" align="flex-start">
        <Stack gap={2}>
          <Title order={2} fz="md">
            {ADMIN_ACTION_LABELS[approval.action_name]} for {approval.customer_email}
          </Title>
          <Text fz="sm" c="dimmed">
            Asked by {approval.requested_by_email} on {formatDateTime(approval.requested_at)}
          </Text>
        </Stack>
        <Badge variant="light" color="yellow">
          Expires {formatDateTime(approval.expires_at)}
        </Badge>
      </Group>
      <Text fz="xs" c="dimmed" mt="sm" mb={4}>
        What will be done, exactly as asked:
      </Text>
      <Code block>{JSON.stringify(approval.action_payload, null, 2)}</Code>
    </Card>
  );
}
