import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Stack } from '@mantine/core';
import type { z } from 'zod';
import { loginRequestSchema } from '@kumo/contract';
import { errorMessage } from '../../../lib/api-error';
import { useLogin } from '../api/login';
import { withActionLink } from './action-message';
import { EmailField } from './email-field';

interface EmailStepProps {
  defaultEmail: string;
  /** Where "Please log in." in an error text leads. */
  linkMode?: 'customer' | 'admin';
  onOtpSent: (email: string) => void;
}

/** The e-mail, checked by the contract's own login rule (the API applies the same). */
const emailStepSchema = loginRequestSchema.pick({ email_id: true });
type EmailStepInput = z.input<typeof emailStepSchema>;
type EmailStepValues = z.output<typeof emailStepSchema>;

/** Step 1: the e-mail to send the one-time password to. */
export function EmailStep({ defaultEmail, linkMode = 'customer', onOtpSent }: EmailStepProps) {
  const loginCall = useLogin();
  const { control, register, handleSubmit, formState } = useForm<EmailStepInput, unknown, EmailStepValues>({
    resolver: zodResolver(emailStepSchema),
    // The message shows once the field was left or the form submitted, then follows every keystroke.
    mode: 'onTouched',
    defaultValues: { email_id: defaultEmail },
  });
  const typed = useWatch({ control, name: 'email_id' });
  const field = register('email_id', { onChange: () => loginCall.reset() });

  const submit = ({ email_id }: EmailStepValues) => {
    loginCall.mutate({ email_id, auth_provider: 'EMAIL_OTP_AUTH' }, { onSuccess: () => onOtpSent(email_id) });
  };

  return (
    <form onSubmit={(event) => void handleSubmit(submit)(event)} noValidate>
      <Stack gap="lg">
        <EmailField
          {...field}
          error={formState.errors.email_id?.message ?? (loginCall.error && withActionLink(errorMessage(loginCall.error), linkMode))}
        />
        <Button type="submit" size="md" fullWidth disabled={!typed?.trim()} loading={loginCall.isPending}>
          Login
        </Button>
      </Stack>
    </form>
  );
}
