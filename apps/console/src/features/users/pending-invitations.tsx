import { useState } from 'react';
import { Badge, Button, Card, Group, Modal, Stack, Text } from '@mantine/core';
import { MESSAGES, ROLE_LABELS, type PendingInvitation } from '@kumo/contract';
import { formatDateTime } from '../../lib/dates';
import { useReadOnlyView } from '../../lib/read-only-view';
import { usePendingInvitations, useResendInvitation, useRevokeInvitation } from './api/pending-invitations';
import { notifyError, notifySuccess } from '../../components/notify';
import { ErrorAlert } from '../../components/error-alert';

/**
 * Invitations sent from this account and not yet answered, under the people list: each can be sent again
 * (a new 7-day link; the old one stops working) or revoked after a confirmation. Hidden while there are none.
 */
export function PendingInvitations() {
  const query = usePendingInvitations();
  const resend = useResendInvitation();
  const [revoking, setRevoking] = useState<PendingInvitation | null>(null);
  // A staff member's view offers neither Resend nor Revoke: the server would refuse them (READ_ONLY_VIEW).
  const readOnly = useReadOnlyView();
  const invitations = query.data ?? [];

  if (query.isError) {
    return (
      <Card p="sm" mt="md">
        <ErrorAlert error={query.error} />
      </Card>
    );
  }
  if (invitations.length === 0) return null;

  const resendTo = (invitation: PendingInvitation) =>
    resend
      .mutateAsync(invitation.invitation_id)
      .then(({ message }) => notifySuccess(message))
      .catch((error: unknown) => notifyError(error));

  return (
    <Card p="xs" mt="md" component="section" aria-labelledby="pending-invitations-title">
      <Text id="pending-invitations-title" fw={600} px="sm" pt="xs" pb="sm">
        Pending invitations
      </Text>
      <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
        {invitations.map((invitation) => (
          <Stack
            key={invitation.invitation_id}
            component="li"
            gap={6}
            px="sm"
            py="xs"
            aria-label={`Invitation to ${invitation.email_id}`}
            style={{ borderRadius: 'var(--mantine-radius-md)', border: '1px solid var(--mantine-color-default-border)' }}
          >
            <Group justify="space-between" gap="xs" wrap="nowrap">
              <Text fw={500} fz="sm" truncate="end">
                {invitation.user_name}
              </Text>
              {invitation.expired ? (
                <Badge color="red" variant="light" style={{ flexShrink: 0 }}>
                  Expired
                </Badge>
              ) : (
                <Badge color="gray" variant="light" style={{ flexShrink: 0 }}>
                  {ROLE_LABELS[invitation.role]}
                </Badge>
              )}
            </Group>
            <Text fz="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {invitation.email_id}
            </Text>
            <Text fz="xs" c="dimmed">
              {invitation.expired ? 'Link expired' : 'Link expires'} {formatDateTime(invitation.expires_on)}
            </Text>
            {!readOnly && (
              <Group gap="xs" justify="flex-end">
                <Button
                  size="compact-sm"
                  variant="light"
                  loading={resend.isPending && resend.variables === invitation.invitation_id}
                  disabled={resend.isPending}
                  onClick={() => void resendTo(invitation)}
                  aria-label={`Resend the invitation to ${invitation.email_id}`}
                >
                  Resend
                </Button>
                <Button
                  size="compact-sm"
                  variant="subtle"
                  color="red"
                  onClick={() => setRevoking(invitation)}
                  aria-label={`Revoke the invitation to ${invitation.email_id}`}
                >
                  Revoke
                </Button>
              </Group>
            )}
          </Stack>
        ))}
      </Stack>
      <RevokeInvitationDialog invitation={revoking} onClose={() => setRevoking(null)} />
    </Card>
  );
}

function RevokeInvitationDialog({ invitation, onClose }: { invitation: PendingInvitation | null; onClose: () => void }) {
  const revoke = useRevokeInvitation();

  const confirm = (target: PendingInvitation) =>
    revoke
      .mutateAsync(target.invitation_id)
      .then(({ message }) => notifySuccess(message))
      .catch((error: unknown) => notifyError(error))
      .finally(onClose);

  return (
    <Modal opened={invitation !== null} onClose={onClose} title="Revoke invitation" centered closeOnClickOutside={!revoke.isPending}>
      {invitation && (
        <Stack gap="lg">
          <Text>
            {MESSAGES.revokeInvitationConfirm} <strong>{invitation.user_name}</strong> ({invitation.email_id}) will not be able to join with
            it.
          </Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={revoke.isPending}>
              Cancel
            </Button>
            <Button color="red" onClick={() => void confirm(invitation)} loading={revoke.isPending}>
              Revoke
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
