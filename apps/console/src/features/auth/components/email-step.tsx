import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Button, Stack } from '@mantine/core';
import { SIGN_IN_MESSAGES, emailError, normalizeEmail } from '@kumo/contract';
import { withActionLink } from './action-message';
import { EmailField } from './email-field';

interface EmailStepProps {
  defaultEmail: string;
  /** Where "Please log in." in an error text leads. */
  linkMode?: 'customer' | 'admin';
  onOtpSent: (email: string) => void;
  /** Called on the first interaction with the form (focus, pointer), to fetch what comes after it. */
  onFirstInteraction?: () => void;
}

/** The call that sends the code, with the API client and its error texts: fetched on interaction, not with the form. */
const loadLoginCall = () => Promise.all([import('../api/login'), import('../../../lib/api-error')]);
/** What the person is told when the code could not be sent (the API's message), even if the call never loaded. */
const messageOf = (error: unknown) =>
  import('../../../lib/api-error').then(
    ({ errorMessage }) => errorMessage(error),
    () => SIGN_IN_MESSAGES.somethingWentWrong,
  );

/**
 * Step 1: the e-mail to send the one-time password to. It is part of /login's first download (bundle-budget.test.ts),
 * so it checks the address with the contract's plain rule (`emailError`, the same messages as the API's schema) rather
 * than react-hook-form and zod: the message shows once the field was left or the form submitted, then follows every
 * keystroke, as the other forms' `onTouched` mode does.
 */
export function EmailStep({ defaultEmail, linkMode = 'customer', onOtpSent, onFirstInteraction }: EmailStepProps) {
  const [email, setEmail] = useState(defaultEmail);
  const [checked, setChecked] = useState(false);
  const [pending, setPending] = useState(false);
  const [serverError, setServerError] = useState<ReactNode>(null);
  const input = useRef<HTMLInputElement>(null);
  const interacted = useRef(false);
  const ruleError = checked ? emailError(email) : undefined;

  const interact = () => {
    if (interacted.current) return;
    interacted.current = true;
    void loadLoginCall();
    onFirstInteraction?.();
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setChecked(true);
    if (emailError(email)) {
      input.current?.focus();
      return;
    }
    interact();
    const email_id = normalizeEmail(email);
    setPending(true);
    setServerError(null);
    try {
      const [{ login }] = await loadLoginCall();
      await login({ email_id, auth_provider: 'EMAIL_OTP_AUTH' });
      onOtpSent(email_id);
    } catch (error) {
      setServerError(withActionLink(await messageOf(error), linkMode));
      setPending(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} onPointerDown={interact} noValidate>
      <Stack gap="lg">
        <EmailField
          ref={input}
          name="email_id"
          value={email}
          onFocus={interact}
          onChange={(event) => {
            setEmail(event.currentTarget.value);
            setServerError(null);
          }}
          onBlur={() => setChecked(true)}
          error={ruleError ?? serverError}
        />
        <Button type="submit" size="md" fullWidth disabled={!email.trim()} loading={pending}>
          Login
        </Button>
      </Stack>
    </form>
  );
}
