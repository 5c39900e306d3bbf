import { useState } from 'react';
import { Alert, Button, Group, Modal, Stack, Text, TextInput, Textarea } from '@mantine/core';
import {
  ADD_FUNDS,
  SUBSCRIPTION_LIMITS,
  addFundsAmountError,
  amountInWords,
  normalizeAmountInput,
  parseAmountToCents,
  remainingCharacters,
  type Subscription,
} from '@kumo/contract';
import { IconCreditCard } from '../../components/icons';
import { errorMessage } from '../../lib/api-error';
import { formatUsd } from '../../lib/format';
import { usePurchaseCredit } from './api/purchase-credit';
import { leaveForCheckout } from './leave-for-checkout';

interface AddFundsDialogProps {
  /** The subscription to add funds to; the dialog is open while there is one. */
  subscription: Subscription | null;
  onClose: () => void;
}

export function AddFundsDialog({ subscription, onClose }: AddFundsDialogProps) {
  return (
    <Modal opened={!!subscription} onClose={onClose} title="Add Funds" centered size="md">
      {/* Mounted only while open, so every opening starts afresh. */}
      {subscription && <AddFundsForm subscription={subscription} onClose={onClose} />}
    </Modal>
  );
}

/** The amount (spec section 5, "Add funds"), optional remarks, then off to the payment provider's page. */
function AddFundsForm({ subscription, onClose }: { subscription: Subscription; onClose: () => void }) {
  const purchase = usePurchaseCredit();
  const [amount, setAmount] = useState('');
  const [touched, setTouched] = useState(false);
  const [remark, setRemark] = useState('');
  const [leaving, setLeaving] = useState(false);

  const error = addFundsAmountError(amount);
  const cleaned = amount.replace(/,/g, '').trim();
  const cents = parseAmountToCents(cleaned.endsWith('.') ? cleaned.slice(0, -1) : cleaned);
  const busy = purchase.isPending || leaving;

  const proceed = async () => {
    if (error) return;
    try {
      const { redirect_url } = await purchase.mutateAsync({
        amount: cleaned,
        event_name: 'ADD_FUNDS',
        remark: remark.trim(),
        iso_currency_code: ADD_FUNDS.currency,
        subscription_id: subscription.subscription_id,
        category: 'PURCHASED',
      });
      setLeaving(true);
      leaveForCheckout(redirect_url);
    } catch {
      // The error is shown in the dialog from the mutation's state.
    }
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        setTouched(true);
        void proceed();
      }}
    >
      <Stack gap="md">
        <Text fz="sm" c="dimmed">
          Add funds to <strong>{subscription.subscription_name}</strong>. Current balance {formatUsd(subscription.total_amount)}.
        </Text>
        <TextInput
          label={`Amount (${ADD_FUNDS.currency})`}
          placeholder="1,000"
          inputMode="decimal"
          autoComplete="off"
          required
          data-autofocus
          leftSection={<Text fz="sm">$</Text>}
          value={amount}
          onChange={(event) => {
            setAmount(normalizeAmountInput(event.currentTarget.value, amount));
            setTouched(true);
          }}
          onBlur={() => setTouched(true)}
          error={touched ? error : undefined}
          description={
            cents !== null && cents > 0
              ? amountInWords(cents)
              : `From $${ADD_FUNDS.minDollars} to $${ADD_FUNDS.maxDollars.toLocaleString('en-US')}`
          }
          inputWrapperOrder={['label', 'input', 'error', 'description']}
        />
        <Textarea
          label="Remarks"
          placeholder="Optional: what these funds are for"
          rows={2}
          maxLength={SUBSCRIPTION_LIMITS.remarkMaxLength}
          value={remark}
          onChange={(event) => setRemark(event.currentTarget.value)}
          description={remainingCharacters(remark)}
          inputWrapperOrder={['label', 'input', 'description', 'error']}
        />
        {purchase.isError && (
          <Alert color="red" variant="light" role="alert">
            {errorMessage(purchase.error)}
          </Alert>
        )}
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <IconCreditCard size={18} color="var(--mantine-color-dimmed)" />
          <Text fz="xs" c="dimmed">
            You pay by card on the payment provider&apos;s secure page and come back here when you are done.
          </Text>
        </Group>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" disabled={!!error} loading={busy}>
            Proceed
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
