import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Stack, Text } from '@mantine/core';
import type { z } from 'zod';
import { ADMIN_LIMITS, ADMIN_MESSAGES, amountInWords, changeOverduePayloadSchema, parseAmountToCents } from '@kumo/contract';
import { formatUsd } from '../../lib/format';
import { FourEyesModal, type FourEyesForm } from './four-eyes-modal';
import { ErrorAlert } from '../../components/error-alert';
import { MoneyInput, isDigitsAndPoint } from '../../components/money-input';

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

/** Digits with at most two decimals; a digit or point past that is ignored (spec section 5); a sign or letter stays, refused by the rule. */
const OVERDUE_TYPING = /^\d{0,7}(\.\d{0,2})?$/;

/** The limit staff type, checked by the contract's own overdue rule (the API applies the same). */
const overdueFormSchema = changeOverduePayloadSchema.pick({ outstanding_limit: true });
type OverdueInput = z.input<typeof overdueFormSchema>;
type OverdueValues = z.output<typeof overdueFormSchema>;

/** Shown in words, 'Zero' when empty. */
function overdueInWords(text: string): string {
  const cents = parseAmountToCents(text.endsWith('.') ? text.slice(0, -1) : text);
  return cents === null || cents === 0 ? 'Zero' : amountInWords(cents);
}

function OverdueForm({ form, userId, current, onCancel }: { form: FourEyesForm; userId: string; current: number; onCancel: () => void }) {
  const { control, handleSubmit, formState } = useForm<OverdueInput, unknown, OverdueValues>({
    resolver: zodResolver(overdueFormSchema),
    // Checked on every keystroke, as the limit's words and its error follow the typing.
    mode: 'all',
    defaultValues: { outstanding_limit: String(current) },
  });
  const limit = String(useWatch({ control, name: 'outstanding_limit' }));
  const unchanged = parseAmountToCents(limit) === Math.round(current * 100);

  const proceed = () => {
    if (unchanged) return;
    // The limit goes as typed; the server reads it digit by digit.
    form
      .ask({ action_name: 'change_overdue_limit', user_id: userId, action_payload: { outstanding_limit: limit, user_id: userId } })
      .catch(() => undefined); // shown from form.error
  };

  return (
    <form noValidate onSubmit={(event) => void handleSubmit(proceed)(event)}>
      <Stack gap="md">
        <Text fz="sm" c="dimmed">
          How far below zero the customer&apos;s balance may go before service stops. Now {formatUsd(current)}.
        </Text>
        <Controller
          control={control}
          name="outstanding_limit"
          render={({ field, fieldState }) => (
            <MoneyInput
              dollars
              label="Overdue limit (USD)"
              data-autofocus
              name={field.name}
              ref={field.ref}
              value={String(field.value)}
              onValueChange={(next) => {
                if (!isDigitsAndPoint(next) || OVERDUE_TYPING.test(next)) field.onChange(next);
              }}
              onBlur={field.onBlur}
              // An empty field keeps Change disabled without a message; its words say Zero.
              error={limit.trim() === '' ? undefined : fieldState.error?.message}
              description={overdueInWords(limit)}
              inputWrapperOrder={['label', 'input', 'error', 'description']}
            />
          )}
        />
        <Text fz="xs" c="dimmed">
          From $0 to ${ADMIN_LIMITS.overdueLimitMaxDollars.toLocaleString('en-US')}, at most {ADMIN_LIMITS.overdueLimitMaxDecimals}{' '}
          decimals.
        </Text>
        {form.error ? <ErrorAlert error={form.error} /> : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={form.pending}>
            Cancel
          </Button>
          <Button type="submit" disabled={!formState.isValid || unchanged} loading={form.pending}>
            Change
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
