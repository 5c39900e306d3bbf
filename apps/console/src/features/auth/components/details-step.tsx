import type { FormEvent, ReactNode } from 'react';
import { Anchor, Button, Checkbox, Stack, TextInput } from '@mantine/core';
import { LIMITS, emailError, nameError, normalizeEmail, normalizeNameInput } from '@kumo/contract';
import { errorMessage } from '../../../lib/api-error';
import { useRegister } from '../api/register';
import { submitChecked, useCheckedField } from '../hooks/use-checked-field';
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

/** Step 2 (sign-up): e-mail, full name and the acceptance of the terms. */
export function DetailsStep({ defaults, termsAccepted, onTermsAcceptedChange, onOtpSent }: DetailsStepProps) {
  const registerCall = useRegister();
  // The contract's zod-free rules (rules.ts), the ones registerRequestSchema is built on: zod stays off the first download.
  const email = useCheckedField(defaults.email_id, emailError);
  const name = useCheckedField(defaults.user_name, nameError, normalizeNameInput);
  const isValid = email.problem === undefined && name.problem === undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    submitChecked([email, name], () => {
      const identity = { email_id: normalizeEmail(email.value), user_name: name.value.trim() };
      registerCall.mutate({ ...identity, auth_provider: 'EMAIL_OTP_AUTH' }, { onSuccess: () => onOtpSent(identity) });
    });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <EmailField
          name="email_id"
          error={email.error ?? (registerCall.error && withActionLink(errorMessage(registerCall.error)))}
          {...email.inputProps}
          onChange={(event) => {
            registerCall.reset();
            email.inputProps.onChange(event);
          }}
        />
        <TextInput
          label="Full name"
          name="user_name"
          autoComplete="name"
          placeholder="Jane Doe"
          size="md"
          maxLength={LIMITS.nameMaxLength}
          error={name.error}
          {...name.inputProps}
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
