import type { ReactNode } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { z } from 'zod';
import { MESSAGES, OTP, normalizeOtpInput, otpSchema } from '@kumo/contract';
import { errorMessage } from '../lib/api-error';

/** The code the approver read out, checked by the contract's OTP rule (the API applies the same). */
const approverOtpSchema = z.object({ otp: otpSchema });
type ApproverOtpInput = z.input<typeof approverOtpSchema>;
type ApproverOtpValues = z.output<typeof approverOtpSchema>;

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
  /** Said and offered above the buttons (what closing leaves behind, a way to withdraw). */
  footer?: ReactNode;
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
  footer,
  onApproved,
  onCancel,
}: ApproverOtpFormProps) {
  const { control, handleSubmit, formState, setValue } = useForm<ApproverOtpInput, unknown, ApproverOtpValues>({
    resolver: zodResolver(approverOtpSchema),
    mode: 'onChange',
    defaultValues: { otp: '' },
  });
  const clearOtp = () => setValue('otp', '', { shouldValidate: true });

  const verify = ({ otp }: ApproverOtpValues) => {
    resend.reset();
    authenticate.mutate({ operation_id: operationId, otp }, { onSuccess: onApproved, onError: clearOtp });
  };
  const onResend = () => {
    authenticate.reset();
    resend.mutate(operationId, { onError: clearOtp });
  };
  // Only the server's answer is said under the field: the code is digits only and Verify waits for all six (spec section 5).
  const error = authenticate.error ?? resend.error;

  return (
    <form onSubmit={(event) => void handleSubmit(verify)(event)} noValidate>
      <Stack gap="md">
        <Text fz="sm" role="status">
          {sentMessage}
        </Text>
        <Controller
          control={control}
          name="otp"
          render={({ field }) => (
            <TextInput
              label={label}
              inputMode="numeric"
              autoComplete="one-time-code"
              data-autofocus
              maxLength={OTP.length}
              name={field.name}
              ref={field.ref}
              value={field.value}
              onBlur={field.onBlur}
              error={error ? errorMessage(error) : undefined}
              onChange={(event) => {
                authenticate.reset();
                resend.reset();
                field.onChange(normalizeOtpInput(event.currentTarget.value));
              }}
              styles={{ input: { letterSpacing: '0.4em', fontVariantNumeric: 'tabular-nums' } }}
            />
          )}
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
        {footer}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" color={submitColor} disabled={!formState.isValid} loading={authenticate.isPending}>
            Verify
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
