import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import type { z } from 'zod';
import { ADD_FUNDS, SUBSCRIPTION_LIMITS, purchaseRequestSchema, remainingCharacters, type Subscription } from '@kumo/contract';
import { AmountField } from '../../components/amount-field';
import { IconCreditCard } from '../../components/icons';
import { formatUsd } from '../../lib/format';
import { usePurchaseCredit } from './api/purchase-credit';
import { leaveForCheckout } from './leave-for-checkout';
import { ErrorAlert } from '../../components/error-alert';

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

/** What the customer fills in, checked by the contract's own purchase rules (the API applies the same). */
const addFundsSchema = purchaseRequestSchema.pick({ amount: true, remark: true });
type AddFundsInput = z.input<typeof addFundsSchema>;
type AddFundsValues = z.output<typeof addFundsSchema>;

/** The amount (spec section 5, "Add funds"), optional remarks, then off to the payment provider's page. */
function AddFundsForm({ subscription, onClose }: { subscription: Subscription; onClose: () => void }) {
  const purchase = usePurchaseCredit();
  const [leaving, setLeaving] = useState(false);
  const { control, register, handleSubmit, formState } = useForm<AddFundsInput, unknown, AddFundsValues>({
    resolver: zodResolver(addFundsSchema),
    // Checked on every keystroke and on leaving the field, as the amount's words and limits follow the typing.
    mode: 'all',
    defaultValues: { amount: '', remark: '' },
  });
  const [typed, remark = ''] = useWatch({ control, name: ['amount', 'remark'] });
  const amount = String(typed);
  const busy = purchase.isPending || leaving;

  const proceed = async ({ remark }: AddFundsValues) => {
    try {
      const { redirect_url } = await purchase.mutateAsync({
        amount: amount.trim(),
        event_name: 'ADD_FUNDS',
        remark,
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
    <form noValidate onSubmit={(event) => void handleSubmit(proceed)(event)}>
      <Stack gap="md">
        <Text fz="sm" c="dimmed">
          Add funds to <strong>{subscription.subscription_name}</strong>. Current balance {formatUsd(subscription.total_amount)}.
        </Text>
        <AmountField
          control={control}
          name="amount"
          hint={`From $${ADD_FUNDS.minDollars} to $${ADD_FUNDS.maxDollars.toLocaleString('en-US')}`}
        />
        <Textarea
          label="Remarks"
          placeholder="Optional: what these funds are for"
          rows={2}
          maxLength={SUBSCRIPTION_LIMITS.remarkMaxLength}
          {...register('remark')}
          description={remainingCharacters(remark)}
          error={formState.errors.remark?.message}
          inputWrapperOrder={['label', 'input', 'description', 'error']}
        />
        {purchase.isError && <ErrorAlert error={purchase.error} />}
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
          <Button type="submit" disabled={!formState.isValid} loading={busy}>
            Proceed
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
