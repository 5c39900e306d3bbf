import { useState, type FormEvent } from 'react';
import { Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { MESSAGES, OTP, normalizeOtpInput } from '@kumo/contract';
import { errorMessage } from '../lib/api-error';

/** The parts of the approval calls (TanStack Query mutations) the form drives. */
interface AuthenticateCall {
  mutate: (body: { operation_id: string; otp: string }, options: { onSuccess: () => void; onError: () => void }) => void;
  reset: () => void;
  isPending: boolean;
  error: unknown;
}
interface ResendCall {
  mutate: (operationId: string, options: { onError: () => void }) => void;
  reset: () => void;
  isPending: boolean;
  isSuccess: boolean;
  error: unknown;
}

interface ApproverOtpFormProps {
  operationId: string;
  authenticate: AuthenticateCall;
  resend: ResendCall;
  label: string;
  /** Said above the field: where the OTP went. */
  sentMessage: string;
  resentMessage: string;
  /** Said beside Resend until it is used. */
  resendPrompt: string;
  submitColor?: string;
  onApproved: () => void;
  onCancel: () => void;
}

/**
 * The OTP an approver received and read out (spec section 4): a wrong one is said under the field, which is
 * cleared; Resend sends the approvers new ones. Shared by every action that needs a second person's approval.
 */
export function ApproverOtpForm({
  operationId,
  authenticate,
  resend,
  label,
  sentMessage,
  resentMessage,
  resendPrompt,
  submitColor,
  onApproved,
  onCancel,
}: ApproverOtpFormProps) {
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
          {sentMessage}
        </Text>
        <TextInput
          label={label}
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
            {resend.isSuccess ? resentMessage : resendPrompt}
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
          <Button type="submit" color={submitColor} disabled={otp.length < OTP.length} loading={authenticate.isPending}>
            Verify
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
