import { useState, type FormEvent } from 'react';
import { Alert, Anchor, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { CLUSTER_MESSAGES, MESSAGES, OTP, clusterDeletionStartedMessage, normalizeOtpInput, type Cluster } from '@kumo/contract';
import { IconAlertTriangle } from '../../components/icons';
import { errorMessage } from '../../lib/api-error';
import { useAuthenticateOperation, useRequestClusterDeletion, useResendOperationOtp } from './api/delete-operation';
import { statusColorClass } from './cluster-status';

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
  const [operationId, setOperationId] = useState<string | null>(null);
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
  if (operationId) return <ApproverOtp cluster={cluster} operationId={operationId} onApproved={() => setDone(true)} onClose={onClose} />;

  return (
    <Stack gap="md">
      <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title="This cannot be undone">
        Deleting <strong>{cluster.cluster_name}</strong> removes its servers, its data and its backups. The account owner approves the
        deletion with a one-time password.
      </Alert>
      {request.isError && (
        <Text className={statusColorClass('red')} fz="sm" role="alert">
          {errorMessage(request.error)}
        </Text>
      )}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button
          color="red"
          loading={request.isPending}
          onClick={() => request.mutate(cluster.deployment_id, { onSuccess: (result) => setOperationId(result.operation_id) })}
        >
          Delete
        </Button>
      </Group>
    </Stack>
  );
}

interface ApproverOtpProps {
  cluster: DeletableCluster;
  operationId: string;
  onApproved: () => void;
  onClose: () => void;
}

/** The OTP the approver received; a wrong one is said under the field and the field is cleared. */
function ApproverOtp({ cluster, operationId, onApproved, onClose }: ApproverOtpProps) {
  const authenticate = useAuthenticateOperation(cluster.deployment_id);
  const resend = useResendOperationOtp();
  const [otp, setOtp] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (otp.length < OTP.length) return;
    resend.reset();
    authenticate.mutate({ operation_id: operationId, otp }, { onSuccess: onApproved, onError: () => setOtp('') });
  };
  const onResend = () => {
    authenticate.reset();
    resend.mutate(operationId, { onError: () => setOtp('') });
  };
  const error = authenticate.error ?? resend.error;

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Text fz="sm" role="status">
          {CLUSTER_MESSAGES.approverOtpSent}
        </Text>
        <TextInput
          label="One-time password"
          inputMode="numeric"
          autoComplete="one-time-code"
          data-autofocus
          maxLength={OTP.length}
          value={otp}
          error={error ? errorMessage(error) : undefined}
          onChange={(event) => {
            authenticate.reset();
            resend.reset();
            setOtp(normalizeOtpInput(event.currentTarget.value));
          }}
          styles={{ input: { letterSpacing: '0.4em', fontVariantNumeric: 'tabular-nums' } }}
        />
        <Group justify="space-between" fz="sm">
          <Text inherit c="dimmed" aria-live="polite">
            {resend.isSuccess ? CLUSTER_MESSAGES.otpResent : 'Didn’t get the code?'}
          </Text>
          <Anchor component="button" type="button" inherit fw={600} onClick={onResend} disabled={resend.isPending}>
            Resend
          </Anchor>
        </Group>
        {authenticate.isPending && (
          <Text ta="center" fz="sm" c="dimmed" role="status">
            {MESSAGES.validating}
          </Text>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" color="red" disabled={otp.length < OTP.length} loading={authenticate.isPending}>
            Verify
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
