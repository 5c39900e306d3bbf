import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, Select, Stack, Text, TextInput, Textarea } from '@mantine/core';
import {
  ADD_FUNDS,
  ADMIN_FUND_CATEGORIES,
  ADMIN_LIMITS,
  ADMIN_MESSAGES,
  TRANSACTION_CATEGORY_LABELS,
  addFundsAmountError,
  amountInWords,
  normalizeAmountInput,
  parseAmountToCents,
  type AdminFundCategory,
  type Subscription,
} from '@kumo/contract';
import { errorMessage } from '../../lib/api-error';
import { formatUsd } from '../../lib/format';
import { FourEyesModal, type FourEyesForm } from './four-eyes-modal';

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

function AddFundsForm({ form, userId, subscription, onCancel }: AddFundsFormProps) {
  const [amount, setAmount] = useState(String(ADD_FUNDS.defaultAdminAmountDollars));
  const [category, setCategory] = useState<AdminFundCategory>('REFUND_MAINTENANCE_COST');
  const [remark, setRemark] = useState('');
  const amountError = addFundsAmountError(amount);
  const cents = parseAmountToCents(amount.endsWith('.') ? amount.slice(0, -1) : amount);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (amountError) return;
    form
      .ask({
        action_name: 'add_funds',
        user_id: userId,
        action_payload: {
          amount: amount.trim(),
          event_name: 'ADMIN_ADD_FUNDS',
          iso_currency_code: ADD_FUNDS.currency,
          mode: 'FREE',
          remark: remark.trim(),
          subscription_id: subscription.subscription_id,
          category,
        },
      })
      .catch(() => undefined); // shown from form.error
  };

  return (
    <form noValidate onSubmit={submit}>
      <Stack gap="md">
        <Text fz="sm" c="dimmed">
          Free funds for <strong>{subscription.subscription_name}</strong>, current balance {formatUsd(subscription.total_amount)}. A second
          staff member approves them with a one-time password.
        </Text>
        <TextInput
          label={`Amount (${ADD_FUNDS.currency})`}
          inputMode="decimal"
          autoComplete="off"
          required
          data-autofocus
          leftSection={<Text fz="sm">$</Text>}
          value={amount}
          onChange={(event) => setAmount(normalizeAmountInput(event.currentTarget.value, amount))}
          error={amountError}
          description={cents !== null && cents > 0 ? amountInWords(cents) : undefined}
          inputWrapperOrder={['label', 'input', 'error', 'description']}
        />
        <Select
          label="Category"
          required
          allowDeselect={false}
          data={ADMIN_FUND_CATEGORIES.map((value) => ({ value, label: TRANSACTION_CATEGORY_LABELS[value] }))}
          value={category}
          onChange={(value) => value && setCategory(value)}
        />
        <Textarea
          label="Remarks"
          placeholder="Why these funds are added; the customer sees this"
          rows={2}
          maxLength={ADMIN_LIMITS.remarkMaxLength}
          value={remark}
          onChange={(event) => setRemark(event.currentTarget.value.trimStart())}
          description={`${ADMIN_LIMITS.remarkMaxLength - remark.length} characters left`}
          inputWrapperOrder={['label', 'input', 'description', 'error']}
        />
        {form.error ? (
          <Alert color="red" variant="light" role="alert">
            {errorMessage(form.error)}
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={form.pending}>
            Cancel
          </Button>
          <Button type="submit" disabled={!!amountError} loading={form.pending}>
            Proceed
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
