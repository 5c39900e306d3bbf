import { useState } from 'react';
import { Badge, Button, Card, Center, EmptyState, Group, Loader, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { ADMIN_ACTION_LABELS, ADMIN_MESSAGES, type PendingApproval } from '@kumo/contract';
import { PageHeader } from '../../components/page-header';
import { IconKey } from '../../components/icons';
import { formatDateTime } from '../../lib/dates';
import { useCancelAdminAction, useMyAdminRequests } from './api/admin-actions';
import { useApprovals } from './api/customer-tabs';
import { ApproverOtpStep } from './four-eyes-modal';
import { ErrorAlert } from '../../components/error-alert';
import { notifyError, notifySuccess } from '../../components/notify';

/**
 * /admin/approvals: the actions waiting for the signed-in staff member to approve, said in words (customer,
 * subscription, amount in dollars and in words, category, remark, who asked, until when), so the approver knows
 * what the OTP in their mail approves; and the staff member's own requests still waiting, to finish or withdraw.
 */
export function ApprovalsPage() {
  const query = useApprovals();
  const mine = useMyAdminRequests();
  const [finishing, setFinishing] = useState<PendingApproval | null>(null);
  return (
    <>
      <PageHeader
        title="Approvals"
        description="Actions other staff members asked for. Check each one, then read them the OTP from your e-mail."
      />
      <Stack gap="xl">
        <section aria-labelledby="approvals-for-me">
          <Title order={2} fz="lg" mb="sm" id="approvals-for-me">
            Waiting for your approval
          </Title>
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
            <ApprovalList approvals={query.data} />
          )}
        </section>
        {mine.data && mine.data.length > 0 && (
          <section aria-labelledby="my-requests">
            <Title order={2} fz="lg" mb="sm" id="my-requests">
              Your requests waiting for an approver
            </Title>
            <ApprovalList approvals={mine.data} mine onFinish={setFinishing} />
          </section>
        )}
        {mine.isError && <ErrorAlert error={mine.error} />}
      </Stack>
      <Modal opened={!!finishing} onClose={() => setFinishing(null)} title="Approver's OTP" centered>
        {finishing && (
          <ApproverOtpStep
            userId={finishing.customer_user_id}
            operationId={finishing.operation_id}
            onApproved={() => {
              setFinishing(null);
              notifySuccess(`${ADMIN_ACTION_LABELS[finishing.action_name]} for ${finishing.customer_name} is done.`);
            }}
            onCancel={() => setFinishing(null)}
          />
        )}
      </Modal>
    </>
  );
}

function ApprovalList({
  approvals,
  mine,
  onFinish,
}: {
  approvals: PendingApproval[];
  mine?: boolean;
  onFinish?: (a: PendingApproval) => void;
}) {
  return (
    <Stack gap="md" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {approvals.map((approval) => (
        <ApprovalCard key={approval.operation_id} approval={approval} mine={mine} onFinish={onFinish} />
      ))}
    </Stack>
  );
}

function ApprovalCard({
  approval,
  mine,
  onFinish,
}: {
  approval: PendingApproval;
  mine?: boolean;
  onFinish?: (a: PendingApproval) => void;
}) {
  const withdraw = useCancelAdminAction();
  const title = `${ADMIN_ACTION_LABELS[approval.action_name]} for ${approval.customer_name}`;
  return (
    <Card component="li" aria-label={title}>
      <Group justify="space-between" align="flex-start">
        <Stack gap={2} miw={0}>
          <Title order={3} fz="md">
            {title}
          </Title>
          <Text fz="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {approval.customer_email} · asked by {approval.requested_by_email} on {formatDateTime(approval.requested_at)}
          </Text>
        </Stack>
        <Badge variant="light" color="yellow">
          Expires {formatDateTime(approval.expires_at)}
        </Badge>
      </Group>
      <Table mt="sm" variant="vertical" layout="fixed" withTableBorder={false} aria-label={`What ${title} will do`}>
        <Table.Tbody>
          {approval.details.map((line) => (
            <Table.Tr key={line.label}>
              <Table.Th w={160}>{line.label}</Table.Th>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{line.value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {mine && (
        <Group justify="flex-end" gap="sm" mt="sm">
          <Button
            variant="default"
            color="red"
            loading={withdraw.isPending}
            onClick={() =>
              withdraw.mutate(approval.operation_id, {
                onSuccess: (result) => notifySuccess(result.message),
                onError: (error) => notifyError(error),
              })
            }
          >
            Withdraw request
          </Button>
          <Button onClick={() => onFinish?.(approval)}>Enter OTP</Button>
        </Group>
      )}
    </Card>
  );
}
