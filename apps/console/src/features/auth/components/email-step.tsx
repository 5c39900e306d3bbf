import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Stack } from '@mantine/core';
import { loginRequestSchema } from '@kumo/contract';
import { errorMessage } from '../../../lib/api-error';
import { useLogin } from '../api/login';
import { EmailField } from './email-field';

const emailFormSchema = loginRequestSchema.pick({ email_id: true });

interface EmailStepProps {
  defaultEmail: string;
  onOtpSent: (email: string) => void;
}

/** Step 1: the e-mail to send the one-time password to. */
export function EmailStep({ defaultEmail, onOtpSent }: EmailStepProps) {
  const loginCall = useLogin();
  const { register, control, handleSubmit, formState } = useForm({
    resolver: zodResolver(emailFormSchema),
    mode: 'onTouched',
    defaultValues: { email_id: defaultEmail },
  });
  const email = useWatch({ control, name: 'email_id' });

  const submit = handleSubmit(({ email_id }) =>
    loginCall.mutate({ email_id, auth_provider: 'EMAIL_OTP_AUTH' }, { onSuccess: () => onOtpSent(email_id) }),
  );

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="lg">
        <EmailField
          error={formState.errors.email_id?.message ?? (loginCall.error && errorMessage(loginCall.error))}
          {...register('email_id', { onChange: () => loginCall.reset() })}
        />
        <Button type="submit" size="md" fullWidth disabled={!email.trim()} loading={loginCall.isPending}>
          Login
        </Button>
      </Stack>
    </form>
  );
}
