import { useEffect } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import type { z } from 'zod';
import { MESSAGES, OTP, authenticateRequestSchema, normalizeOtpInput } from '@kumo/contract';
import { errorMessage } from '../../../lib/api-error';
import { withActionLink } from './action-message';
import { IconArrowLeft } from '../../../components/icons';
import { useAuthenticate, type SignedIn } from '../api/authenticate';
import { useResendOtp } from '../api/resend-otp';
import { formatCountdown, useCountdown } from '../hooks/use-countdown';
import type { SignInIdentity, SignInMode } from '../sign-in-mode';

interface OtpStepProps {
  mode: SignInMode;
  identity: SignInIdentity;
  onBack: () => void;
  onSignedIn: (signedIn: SignedIn) => void;
}

/** The code, checked by the contract's own rule (the API applies the same). */
const otpStepSchema = authenticateRequestSchema.pick({ otp: true });
type OtpStepInput = z.input<typeof otpStepSchema>;
type OtpStepValues = z.output<typeof otpStepSchema>;

/** Step 3: the one-time password, with a resend offered once the countdown ends. */
export function OtpStep({ mode, identity, onBack, onSignedIn }: OtpStepProps) {
  const { control, handleSubmit, setValue, setFocus } = useForm<OtpStepInput, unknown, OtpStepValues>({
    resolver: zodResolver(otpStepSchema),
    defaultValues: { otp: '' },
  });
  const otp = useWatch({ control, name: 'otp' });
  const { remaining, restart } = useCountdown(OTP.resendCountdownSeconds);
  const authenticateCall = useAuthenticate();
  const resendCall = useResendOtp();
  const isSignUp = mode === 'signup';
  const error = authenticateCall.error ?? resendCall.error;

  // Keyboard users continue where the code goes: on arrival from the e-mail step and after each Resend.
  const focusOtp = () => setFocus('otp');
  useEffect(() => setFocus('otp'), [setFocus]);

  const clearOtp = () => {
    setValue('otp', '');
    focusOtp();
  };

  const submit = ({ otp }: OtpStepValues) => {
    resendCall.reset();
    authenticateCall.mutate(
      { email_id: identity.email_id, otp, user_name: isSignUp ? identity.user_name : '' },
      { onSuccess: onSignedIn, onError: clearOtp },
    );
  };

  const resend = () => {
    authenticateCall.reset();
    resendCall.mutate(
      { email_id: identity.email_id, ...(isSignUp && { user_name: identity.user_name }) },
      {
        onSuccess: () => {
          restart();
          focusOtp();
        },
        onError: clearOtp,
      },
    );
  };

  return (
    <form onSubmit={(event) => void handleSubmit(submit)(event)} noValidate>
      <Stack gap="md">
        <Text c="dimmed" fz="sm">
          We sent a {OTP.length}-digit code to{' '}
          <Text span fw={600} c="var(--mantine-color-text)" style={{ overflowWrap: 'anywhere' }}>
            {identity.email_id}
          </Text>
          . It is valid for {OTP.validMinutes} minutes.
        </Text>
        <Controller
          control={control}
          name="otp"
          render={({ field, fieldState }) => (
            <TextInput
              ref={field.ref}
              name={field.name}
              label="One-time password"
              inputMode="numeric"
              autoComplete="one-time-code"
              size="md"
              maxLength={OTP.length}
              value={field.value}
              error={fieldState.error?.message ?? (error && withActionLink(errorMessage(error), mode === 'admin' ? 'admin' : 'customer'))}
              onChange={(event) => {
                authenticateCall.reset();
                resendCall.reset();
                field.onChange(normalizeOtpInput(event.currentTarget.value));
              }}
              onBlur={field.onBlur}
              styles={{ input: { letterSpacing: '0.4em', fontVariantNumeric: 'tabular-nums' } }}
            />
          )}
        />
        <Group justify="space-between" fz="sm">
          <Text inherit c="dimmed">
            Didn&apos;t get the code?
          </Text>
          {remaining > 0 ? (
            <Text inherit c="dimmed" aria-live="polite" style={{ fontVariantNumeric: 'tabular-nums' }}>
              Resend in {formatCountdown(remaining)}
            </Text>
          ) : (
            <Anchor component="button" type="button" inherit fw={600} onClick={resend} disabled={resendCall.isPending}>
              Resend
            </Anchor>
          )}
        </Group>
        <Button type="submit" size="md" fullWidth disabled={otp.length < OTP.length} loading={authenticateCall.isPending}>
          Verify
        </Button>
        {authenticateCall.isPending && (
          <Text ta="center" fz="sm" c="dimmed" role="status">
            {MESSAGES.authenticating}
          </Text>
        )}
        <Text fz="xs" c="dimmed">
          {MESSAGES.otpLockWarning}
        </Text>
        <Button variant="subtle" color="gray" leftSection={<IconArrowLeft />} onClick={onBack} type="button">
          Back
        </Button>
      </Stack>
    </form>
  );
}
