import type { FormEvent } from 'react';
import { Button, Stack } from '@mantine/core';
import { emailError, normalizeEmail } from '@kumo/contract';
import { errorMessage } from '../../../lib/api-error';
import { useLogin } from '../api/login';
import { submitChecked, useCheckedField } from '../hooks/use-checked-field';
import { withActionLink } from './action-message';
import { EmailField } from './email-field';

interface EmailStepProps {
  defaultEmail: string;
  /** Where "Please log in." in an error text leads. */
  linkMode?: 'customer' | 'admin';
  onOtpSent: (email: string) => void;
}

/** Step 1: the e-mail to send the one-time password to. */
export function EmailStep({ defaultEmail, linkMode = 'customer', onOtpSent }: EmailStepProps) {
  const loginCall = useLogin();
  // The contract's zod-free rule (rules.ts), the one loginRequestSchema is built on: zod stays off the first download.
  const email = useCheckedField(defaultEmail, emailError);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    submitChecked([email], () => {
      const email_id = normalizeEmail(email.value);
      loginCall.mutate({ email_id, auth_provider: 'EMAIL_OTP_AUTH' }, { onSuccess: () => onOtpSent(email_id) });
    });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="lg">
        <EmailField
          name="email_id"
          error={email.error ?? (loginCall.error && withActionLink(errorMessage(loginCall.error), linkMode))}
          {...email.inputProps}
          onChange={(event) => {
            loginCall.reset();
            email.inputProps.onChange(event);
          }}
        />
        <Button type="submit" size="md" fullWidth disabled={!email.value.trim()} loading={loginCall.isPending}>
          Login
        </Button>
      </Stack>
    </form>
  );
}
