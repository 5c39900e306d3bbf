import { useState, type FormEvent, type ReactNode } from 'react';
import { Alert, Anchor, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { ADMIN_MESSAGES, MESSAGES, OTP, normalizeOtpInput, type AdminActionRequest } from '@kumo/contract';
import { errorMessage } from '../../lib/api-error';
import { useAuthenticateAdminAction, useRequestAdminAction, useResendAdminActionOtp } from './api/admin-actions';

export interface FourEyesForm {
  /** Sends the order; resolves once the OTP has gone to the approvers, rejects with the server's error. */
  ask: (order: AdminActionRequest) => Promise<void>;
  pending: boolean;
  error: unknown;
}

interface FourEyesModalProps {
  opened: boolean;
  title: string;
  /** The customer whose data is reloaded once the action is approved. */
  userId: string;
  /** Shown in the success dialog. */
  successMessage: string;
  onClose: () => void;
  /** The action's own form; it calls ask() with the order. */
  children: (form: FourEyesForm) => ReactNode;
}

/**
 * The sensitive-action flow of spec section 4: the form, then the approver's OTP, then the data
 * refreshes and a success dialog shows. The modal's content is mounted only while open, so each
 * opening starts at the form.
 */
export function FourEyesModal({ opened, title, onClose, ...flow }: FourEyesModalProps) {
  const [approved, setApproved] = useState(false);
  const close = () => {
    setApproved(false);
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={approved ? 'Success' : title} centered size="md">
      {opened && <FourEyesFlow {...flow} approved={approved} onApproved={() => setApproved(true)} onClose={close} />}
    </Modal>
  );
}

interface FlowProps extends Omit<FourEyesModalProps, 'opened' | 'title' | 'onClose'> {
  approved: boolean;
  onApproved: () => void;
  onClose: () => void;
}

function FourEyesFlow({ userId, successMessage, children, approved, onApproved, onClose }: FlowProps) {
  const request = useRequestAdminAction();
  const [operationId, setOperationId] = useState<string | null>(null);

  if (approved) {
    return (
      <Stack gap="md">
        <Alert color="green" variant="light" role="status">
          {successMessage}
        </Alert>
        <Group justify="flex-end">
          <Button onClick={onClose} data-autofocus>
            Close
          </Button>
        </Group>
      </Stack>
    );
  }
  if (operationId) return <ApproverOtpStep userId={userId} operationId={operationId} onApproved={onApproved} onCancel={onClose} />;

  const ask = async (order: AdminActionRequest) => {
    const result = await request.mutateAsync(order);
    setOperationId(result.operation_id);
  };
  return <>{children({ ask, pending: request.isPending, error: request.error })}</>;
}

interface ApproverOtpStepProps {
  userId: string;
  operationId: string;
  onApproved: () => void;
  onCancel: () => void;
}

/** The OTP an approver received and read out; a wrong one is said under the field, which is cleared. */
export function ApproverOtpStep({ userId, operationId, onApproved, onCancel }: ApproverOtpStepProps) {
  const authenticate = useAuthenticateAdminAction(userId);
  const resend = useResendAdminActionOtp();
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
          {ADMIN_MESSAGES.approverOtpSent}
        </Text>
        <TextInput
          label="Approver's OTP"
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
            {resend.isSuccess ? ADMIN_MESSAGES.otpResent : 'The approver didn’t get it?'}
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
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" disabled={otp.length < OTP.length} loading={authenticate.isPending}>
            Verify
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
