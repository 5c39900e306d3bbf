import type { ReactNode } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, Checkbox, Stack, TextInput } from '@mantine/core';
import type { z } from 'zod';
import { LIMITS, normalizeNameInput, registerRequestSchema } from '@kumo/contract';
import { errorMessage } from '../../../lib/api-error';
import { useRegister } from '../api/register';
import type { SignInIdentity } from '../sign-in-mode';
import { withActionLink } from './action-message';
import { EmailField } from './email-field';

interface DetailsStepProps {
  defaults: SignInIdentity;
  /** Kept by the screen so going Back from the OTP step finds the box as it was left. */
  termsAccepted: boolean;
  onTermsAcceptedChange: (accepted: boolean) => void;
  onOtpSent: (identity: SignInIdentity) => void;
}

/** The e-mail and name, checked by the contract's own sign-up rules (the API applies the same). */
const detailsSchema = registerRequestSchema.pick({ email_id: true, user_name: true });
type DetailsInput = z.input<typeof detailsSchema>;
type DetailsValues = z.output<typeof detailsSchema>;

/** Step 2 (sign-up): e-mail, full name and the acceptance of the terms. */
export function DetailsStep({ defaults, termsAccepted, onTermsAcceptedChange, onOtpSent }: DetailsStepProps) {
  const registerCall = useRegister();
  const { control, register, handleSubmit, formState } = useForm<DetailsInput, unknown, DetailsValues>({
    resolver: zodResolver(detailsSchema),
    // A message shows once its field was left or the form submitted, then follows every keystroke.
    mode: 'onTouched',
    defaultValues: defaults,
  });
  // Checked here on every render rather than read from formState.isValid, which the resolver settles a moment
  // later: typing straight after the form appears could otherwise leave Sign Up disabled on a stale result.
  const isValid = detailsSchema.safeParse(useWatch({ control })).success;

  const submit = (identity: DetailsValues) => {
    registerCall.mutate({ ...identity, auth_provider: 'EMAIL_OTP_AUTH' }, { onSuccess: () => onOtpSent(identity) });
  };

  return (
    <form onSubmit={(event) => void handleSubmit(submit)(event)} noValidate>
      <Stack gap="md">
        <EmailField
          {...register('email_id', { onChange: () => registerCall.reset() })}
          error={formState.errors.email_id?.message ?? (registerCall.error && withActionLink(errorMessage(registerCall.error)))}
        />
        <Controller
          control={control}
          name="user_name"
          render={({ field, fieldState }) => (
            <TextInput
              label="Full name"
              name={field.name}
              ref={field.ref}
              autoComplete="name"
              placeholder="Jane Doe"
              size="md"
              maxLength={LIMITS.nameMaxLength}
              value={field.value}
              onChange={(event) => field.onChange(normalizeNameInput(event.currentTarget.value))}
              onBlur={field.onBlur}
              error={fieldState.error?.message}
            />
          )}
        />
        <Checkbox
          mt={4}
          checked={termsAccepted}
          onChange={(event) => onTermsAcceptedChange(event.currentTarget.checked)}
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
