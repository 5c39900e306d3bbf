import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { ADMIN_LIMITS, ADMIN_MESSAGES, amountInWords, overdueLimitSchema, parseAmountToCents } from '@kumo/contract';
import { errorMessage } from '../../lib/api-error';
import { formatUsd } from '../../lib/format';
import { FourEyesModal, type FourEyesForm } from './four-eyes-modal';

interface OverdueLimitDialogProps {
  userId: string;
  opened: boolean;
  /** The limit in force, in dollars. */
  current: number;
  onClose: () => void;
}

export function OverdueLimitDialog({ userId, opened, current, onClose }: OverdueLimitDialogProps) {
  return (
    <FourEyesModal
      opened={opened}
      title="Change Overdue Limit"
      userId={userId}
      successMessage={ADMIN_MESSAGES.overdueChanged}
      onClose={onClose}
    >
      {(form) => <OverdueForm form={form} userId={userId} current={current} onCancel={onClose} />}
    </FourEyesModal>
  );
}

/** Digits with at most two decimals; a keystroke that would break that is ignored (spec section 5). */
const OVERDUE_TYPING = /^\d{0,7}(\.\d{0,2})?$/;

/** The text's error, or undefined when it is a limit the server accepts. */
export function overdueError(text: string): string | undefined {
  if (text.trim() === '') return ADMIN_MESSAGES.overdueInvalid;
  const parsed = overdueLimitSchema.safeParse(text);
  return parsed.success ? undefined : (parsed.error.issues[0]?.message ?? ADMIN_MESSAGES.overdueInvalid);
}

/** Shown in words, 'Zero' when empty. */
export function overdueInWords(text: string): string {
  const cents = parseAmountToCents(text.endsWith('.') ? text.slice(0, -1) : text);
  return cents === null || cents === 0 ? 'Zero' : amountInWords(cents);
}

function OverdueForm({ form, userId, current, onCancel }: { form: FourEyesForm; userId: string; current: number; onCancel: () => void }) {
  const [limit, setLimit] = useState(String(current));
  const error = overdueError(limit);
  const unchanged = parseAmountToCents(limit) === Math.round(current * 100);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (error || unchanged) return;
    form
      .ask({ action_name: 'change_overdue_limit', user_id: userId, action_payload: { outstanding_limit: limit, user_id: userId } })
      .catch(() => undefined);
  };

  return (
    <form noValidate onSubmit={submit}>
      <Stack gap="md">
        <Text fz="sm" c="dimmed">
          How far below zero the customer&apos;s balance may go before service stops. Now {formatUsd(current)}.
        </Text>
        <TextInput
          label="Overdue limit (USD)"
          inputMode="decimal"
          autoComplete="off"
          data-autofocus
          leftSection={<Text fz="sm">$</Text>}
          value={limit}
          onChange={(event) => {
            const next = event.currentTarget.value.replace(/,/g, '').trim();
            if (OVERDUE_TYPING.test(next)) setLimit(next);
          }}
          error={limit.trim() === '' ? undefined : error}
          description={overdueInWords(limit)}
          inputWrapperOrder={['label', 'input', 'error', 'description']}
        />
        <Text fz="xs" c="dimmed">
          From $0 to ${ADMIN_LIMITS.overdueLimitMaxDollars.toLocaleString('en-US')}, at most {ADMIN_LIMITS.overdueLimitMaxDecimals}{' '}
          decimals.
        </Text>
        {form.error ? (
          <Alert color="red" variant="light" role="alert">
            {errorMessage(form.error)}
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={form.pending}>
            Cancel
          </Button>
          <Button type="submit" disabled={!!error || unchanged} loading={form.pending}>
            Change
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
