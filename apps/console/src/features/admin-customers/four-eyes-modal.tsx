import { useState, type ReactNode } from 'react';
import { Alert, Anchor, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { ADMIN_MESSAGES, type AdminActionRequest } from '@kumo/contract';
import { ApproverOtpForm } from '../../components/approver-otp-form';
import { useAuthenticateAdminAction, useCancelAdminAction, useRequestAdminAction, useResendAdminActionOtp } from './api/admin-actions';
import { notifyError, notifySuccess } from '../../components/notify';

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

/**
 * The approver's OTP for a customer action; approving reloads the customer's data. Closing leaves the request
 * waiting (the approver may be reading the OTP out): it is listed under Approvals until it expires, to finish or
 * withdraw there; Withdraw request here ends it at once.
 */
export function ApproverOtpStep({ userId, operationId, onApproved, onCancel }: ApproverOtpStepProps) {
  const withdraw = useCancelAdminAction();
  return (
    <ApproverOtpForm
      operationId={operationId}
      authenticate={useAuthenticateAdminAction(userId)}
      resend={useResendAdminActionOtp()}
      label="Approver's OTP"
      sentMessage={ADMIN_MESSAGES.approverOtpSent}
      resentMessage={ADMIN_MESSAGES.otpResent}
      resendPrompt="The approver didn’t get it?"
      footer={
        <Text fz="xs" c="dimmed">
          Closing keeps this request waiting until its OTP expires; finish or withdraw it under Approvals.{' '}
          <Anchor
            component="button"
            type="button"
            inherit
            fw={600}
            c="red"
            disabled={withdraw.isPending}
            onClick={() =>
              withdraw.mutate(operationId, {
                onSuccess: (result) => {
                  notifySuccess(result.message);
                  onCancel();
                },
                onError: (error) => notifyError(error),
              })
            }
          >
            Withdraw request
          </Anchor>
        </Text>
      }
      onApproved={onApproved}
      onCancel={onCancel}
    />
  );
}
