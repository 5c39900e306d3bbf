import { useState, type ReactNode } from 'react';
import { Alert, Button, Group, Modal, Stack } from '@mantine/core';
import { ADMIN_MESSAGES, type AdminActionRequest } from '@kumo/contract';
import { ApproverOtpForm } from '../../components/approver-otp-form';
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

/** The approver's OTP for a customer action; approving reloads the customer's data. */
export function ApproverOtpStep({ userId, operationId, onApproved, onCancel }: ApproverOtpStepProps) {
  return (
    <ApproverOtpForm
      operationId={operationId}
      authenticate={useAuthenticateAdminAction(userId)}
      resend={useResendAdminActionOtp()}
      label="Approver's OTP"
      sentMessage={ADMIN_MESSAGES.approverOtpSent}
      resentMessage={ADMIN_MESSAGES.otpResent}
      resendPrompt="The approver didn’t get it?"
      onApproved={onApproved}
      onCancel={onCancel}
    />
  );
}
