import { useState } from 'react';
import { Alert, Button, Group, Modal, Stack } from '@mantine/core';
import {
  clusterDeletionStartedMessage,
  deletionOtpResentMessage,
  deletionOtpSentMessage,
  type Cluster,
  type CreateOperationResponse,
} from '@kumo/contract';
import { ApproverOtpForm } from '../../components/approver-otp-form';
import { IconAlertTriangle } from '../../components/icons';
import { useAuthenticateOperation, useRequestClusterDeletion, useResendOperationOtp } from './api/delete-operation';
import { ErrorAlert } from '../../components/error-alert';

type DeletableCluster = Pick<Cluster, 'deployment_id' | 'cluster_name' | 'subscription_name'>;

interface DeleteClusterDialogProps {
  cluster: DeletableCluster | null;
  onClose: () => void;
}

/**
 * Deleting a cluster (spec section 4, Flows): a warning, the deletion request, the approver's OTP,
 * then the message that the deletion has started.
 */
export function DeleteClusterDialog({ cluster, onClose }: DeleteClusterDialogProps) {
  return (
    <Modal opened={!!cluster} onClose={onClose} title="Delete cluster" centered size="md">
      {/* Mounted only while open, so each deletion starts at the warning. */}
      {cluster && <DeleteClusterFlow key={cluster.deployment_id} cluster={cluster} onClose={onClose} />}
    </Modal>
  );
}

function DeleteClusterFlow({ cluster, onClose }: { cluster: DeletableCluster; onClose: () => void }) {
  const request = useRequestClusterDeletion();
  const [operation, setOperation] = useState<CreateOperationResponse | null>(null);
  const [done, setDone] = useState(false);

  if (done) {
    return (
      <Stack gap="md">
        <Alert color="green" variant="light" role="status">
          {clusterDeletionStartedMessage(cluster.cluster_name, cluster.subscription_name)}
        </Alert>
        <Group justify="flex-end">
          <Button onClick={onClose} data-autofocus>
            Close
          </Button>
        </Group>
      </Stack>
    );
  }
  if (operation) return <ApproverOtp cluster={cluster} operation={operation} onApproved={() => setDone(true)} onClose={onClose} />;

  return (
    <Stack gap="md">
      <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title="This cannot be undone">
        Deleting <strong>{cluster.cluster_name}</strong> removes its servers, its data and its backups. The account owner approves the
        deletion with a one-time password.
      </Alert>
      {request.isError && <ErrorAlert error={request.error} />}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button color="red" loading={request.isPending} onClick={() => request.mutate(cluster.deployment_id, { onSuccess: setOperation })}>
          Delete
        </Button>
      </Group>
    </Stack>
  );
}

interface ApproverOtpProps {
  cluster: DeletableCluster;
  /** The API's answer to the request: the operation and where its OTP went. */
  operation: CreateOperationResponse;
  onApproved: () => void;
  onClose: () => void;
}

/** The approver's OTP for the deletion, naming who received it: the account owner's e-mail, or the owner herself as "you". */
function ApproverOtp({ cluster, operation, onApproved, onClose }: ApproverOtpProps) {
  return (
    <ApproverOtpForm
      operationId={operation.operation_id}
      authenticate={useAuthenticateOperation(cluster.deployment_id)}
      resend={useResendOperationOtp()}
      label="One-time password"
      sentMessage={deletionOtpSentMessage(operation.approver_email, operation.sent_to_you)}
      resentMessage={deletionOtpResentMessage(operation.approver_email, operation.sent_to_you)}
      resendPrompt="Didn’t get the code?"
      submitColor="red"
      onApproved={onApproved}
      onCancel={onClose}
    />
  );
}
