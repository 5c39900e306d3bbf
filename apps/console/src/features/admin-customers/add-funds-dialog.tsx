import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Select, Stack, Text, Textarea } from '@mantine/core';
import type { z } from 'zod';
import {
  ADD_FUNDS,
  ADMIN_FUND_CATEGORIES,
  ADMIN_LIMITS,
  ADMIN_MESSAGES,
  TRANSACTION_CATEGORY_LABELS,
  addFundsPayloadSchema,
  type Subscription,
} from '@kumo/contract';
import { AmountField } from '../../components/amount-field';
import { formatUsd } from '../../lib/format';
import { FourEyesModal, type FourEyesForm } from './four-eyes-modal';
import { ErrorAlert } from '../../components/error-alert';

interface AdminAddFundsDialogProps {
  userId: string;
  /** The subscription to add funds to; open while there is one. */
  subscription: Subscription | null;
  onClose: () => void;
}

/** Staff add free funds to a customer's subscription, approved by a second person's OTP. */
export function AdminAddFundsDialog({ userId, subscription, onClose }: AdminAddFundsDialogProps) {
  return (
    <FourEyesModal opened={!!subscription} title="Add Funds" userId={userId} successMessage={ADMIN_MESSAGES.fundsAdded} onClose={onClose}>
      {(form) => subscription && <AddFundsForm form={form} userId={userId} subscription={subscription} onCancel={onClose} />}
    </FourEyesModal>
  );
}

interface AddFundsFormProps {
  form: FourEyesForm;
  userId: string;
  subscription: Subscription;
  onCancel: () => void;
}

/** What staff fill in, checked by the contract's own add-funds rules (the API applies the same). */
const adminAddFundsSchema = addFundsPayloadSchema.pick({ amount: true, category: true, remark: true });
type AdminAddFundsInput = z.input<typeof adminAddFundsSchema>;
type AdminAddFundsValues = z.output<typeof adminAddFundsSchema>;

function AddFundsForm({ form, userId, subscription, onCancel }: AddFundsFormProps) {
  const { control, handleSubmit, formState } = useForm<AdminAddFundsInput, unknown, AdminAddFundsValues>({
    resolver: zodResolver(adminAddFundsSchema),
    // Checked on every keystroke and on leaving the field, as the amount's words and limits follow the typing.
    mode: 'all',
    defaultValues: { amount: String(ADD_FUNDS.defaultAdminAmountDollars), category: 'REFUND_MAINTENANCE_COST', remark: '' },
  });
  const [typed, remark = ''] = useWatch({ control, name: ['amount', 'remark'] });
  const amount = String(typed);

  const proceed = ({ category, remark }: AdminAddFundsValues) => {
    form
      .ask({
        action_name: 'add_funds',
        user_id: userId,
        action_payload: {
          amount: amount.trim(),
          event_name: 'ADMIN_ADD_FUNDS',
          iso_currency_code: ADD_FUNDS.currency,
          mode: 'FREE',
          remark,
          subscription_id: subscription.subscription_id,
          category,
        },
      })
      .catch(() => undefined); // shown from form.error
  };

  return (
    <form noValidate onSubmit={(event) => void handleSubmit(proceed)(event)}>
      <Stack gap="md">
        <Text fz="sm" c="dimmed">
          Free funds for <strong>{subscription.subscription_name}</strong>, current balance {formatUsd(subscription.total_amount)}. A second
          staff member approves them with a one-time password.
        </Text>
        <AmountField control={control} name="amount" />
        <Controller
          control={control}
          name="category"
          render={({ field }) => (
            <Select
              label="Category"
              required
              allowDeselect={false}
              data={ADMIN_FUND_CATEGORIES.map((value) => ({ value, label: TRANSACTION_CATEGORY_LABELS[value] }))}
              name={field.name}
              ref={field.ref}
              value={field.value}
              onChange={(value) => value && field.onChange(value)}
              onBlur={field.onBlur}
            />
          )}
        />
        <Controller
          control={control}
          name="remark"
          render={({ field, fieldState }) => (
            <Textarea
              label="Remarks"
              placeholder="Why these funds are added; the customer sees this"
              rows={2}
              maxLength={ADMIN_LIMITS.remarkMaxLength}
              name={field.name}
              ref={field.ref}
              value={field.value}
              onChange={(event) => field.onChange(event.currentTarget.value.trimStart())}
              onBlur={field.onBlur}
              description={`${ADMIN_LIMITS.remarkMaxLength - remark.length} characters left`}
              error={fieldState.error?.message}
              inputWrapperOrder={['label', 'input', 'description', 'error']}
            />
          )}
        />
        {form.error ? <ErrorAlert error={form.error} /> : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={form.pending}>
            Cancel
          </Button>
          <Button type="submit" disabled={!formState.isValid} loading={form.pending}>
            Proceed
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
