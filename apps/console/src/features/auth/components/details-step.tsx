import { useState, type ReactNode } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, Checkbox, Stack, TextInput } from '@mantine/core';
import { LIMITS, normalizeNameInput, registerRequestSchema } from '@kumo/contract';
import { errorMessage } from '../../../lib/api-error';
import { useRegister } from '../api/register';
import type { SignInIdentity } from '../sign-in-mode';
import { EmailField } from './email-field';

const detailsFormSchema = registerRequestSchema.pick({ email_id: true, user_name: true });

interface DetailsStepProps {
  defaults: SignInIdentity;
  onOtpSent: (identity: SignInIdentity) => void;
}

/** Step 2 (sign-up): e-mail, full name and the acceptance of the terms. */
export function DetailsStep({ defaults, onOtpSent }: DetailsStepProps) {
  const registerCall = useRegister();
  const [termsAccepted, setTermsAccepted] = useState(false);
  const { register, control, handleSubmit, formState } = useForm({
    resolver: zodResolver(detailsFormSchema),
    mode: 'onTouched',
    defaultValues: defaults,
  });
  // Read before any short-circuit: react-hook-form only tracks the form state a render reads.
  const { errors, isValid } = formState;

  const submit = handleSubmit((identity) =>
    registerCall.mutate({ ...identity, auth_provider: 'EMAIL_OTP_AUTH' }, { onSuccess: () => onOtpSent(identity) }),
  );

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <EmailField
          error={errors.email_id?.message ?? (registerCall.error && errorMessage(registerCall.error))}
          {...register('email_id', { onChange: () => registerCall.reset() })}
        />
        <Controller
          control={control}
          name="user_name"
          render={({ field, fieldState }) => (
            <TextInput
              label="Full name"
              autoComplete="name"
              placeholder="Jane Doe"
              size="md"
              maxLength={LIMITS.nameMaxLength}
              error={fieldState.error?.message}
              {...field}
              onChange={(event) => field.onChange(normalizeNameInput(event.currentTarget.value))}
            />
          )}
        />
        <Checkbox
          mt={4}
          checked={termsAccepted}
          onChange={(event) => setTermsAccepted(event.currentTarget.checked)}
          label={
            <>
              I agree to the <NewTabLink href="/terms-of-use">Terms of Use</NewTabLink> and the{' '}
              <NewTabLink href="/privacy-policy">Privacy Policy</NewTabLink>.
            </>
          }
        />
        <Button type="submit" size="md" fullWidth disabled={!termsAccepted || !isValid} loading={registerCall.isPending}>
          Sign Up
        </Button>
      </Stack>
    </form>
  );
}

function NewTabLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Anchor href={href} target="_blank" rel="noopener" inherit>
      {children}
    </Anchor>
  );
}
